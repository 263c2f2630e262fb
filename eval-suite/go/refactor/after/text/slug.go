package text

import "strings"

const punctuation = ".,;:!?\"'"

// Slug turns a title into a URL slug: lower case, words joined by '-'.
func Slug(title string) string {
	return strings.Join(cleanWords(strings.ToLower(title)), "-")
}

// cleanWords returns the words of s without surrounding punctuation, empty ones dropped.
func cleanWords(s string) []string {
	var words []string
	for _, w := range strings.Fields(s) {
		if w = strings.Trim(w, punctuation); w != "" {
			words = append(words, w)
		}
	}
	return words
}
