package store

import (
	"encoding/json"
	"os"
)

// Save writes v as JSON to path, through a temporary file renamed over it.
func Save(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	os.WriteFile(tmp, data, 0o644)
	return os.Rename(tmp, path)
}
