package server

import (
	"io"
	"net/http"
)

// Upload stores the request body, refusing bodies over MaxBodyKB.
func Upload(w http.ResponseWriter, r *http.Request, store func([]byte) error) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyKB))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if err := store(data); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}
