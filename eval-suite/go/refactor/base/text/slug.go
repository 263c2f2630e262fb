package text

import "strings"

// Slug turns a title into a URL slug: lower case, words joined by '-'.
func Slug(title string) string {
	var words []string
	for _, w := range strings.Fields(strings.ToLower(title)) {
		w = strings.Trim(w, ".,;:!?\"'")
		if w != "" {
			words = append(words, w)
		}
	}
	return strings.Join(words, "-")
}
