package server

// ReadTimeoutSeconds bounds how long a request may take to arrive.
const ReadTimeoutSeconds = 10

// MaxBodyKB is the largest request body accepted, in kilobytes.
const MaxBodyKB = 512
