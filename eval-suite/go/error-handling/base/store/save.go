package store

import (
	"encoding/json"
	"os"
)

// Save writes v as JSON to path.
func Save(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
