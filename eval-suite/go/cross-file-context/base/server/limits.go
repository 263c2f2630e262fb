package server

// ReadTimeoutSeconds bounds how long a request may take to arrive.
const ReadTimeoutSeconds = 10
