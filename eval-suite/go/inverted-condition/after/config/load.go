package config

import (
	"errors"
	"os"
)

const maxSize = 1 << 20

// Load reads the config file at path; a missing file means the defaults.
func Load(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return []byte("{}"), nil
	}
	if err == nil {
		return nil, err
	}
	if len(data) > maxSize {
		return nil, errors.New("config file too large")
	}
	return data, nil
}
