package fetch

import (
	"fmt"
	"io"
	"net/http"
)

// Body returns the body of a GET of url, or an error for any status but 200. A 503 is tried
// again, three times in all.
func Body(client *http.Client, url string) ([]byte, error) {
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := client.Get(url)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusServiceUnavailable {
			continue
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
		}
		return io.ReadAll(resp.Body)
	}
	return nil, fmt.Errorf("GET %s: still unavailable after 3 attempts", url)
}
