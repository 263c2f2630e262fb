package config

import (
	"errors"
	"os"
)

// Load reads the config file at path; a missing file means the defaults.
func Load(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return []byte("{}"), nil
	}
	if err != nil {
		return nil, err
	}
	return data, nil
}
