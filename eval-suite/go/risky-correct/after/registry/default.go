package registry

import "sync"

var (
	defOnce sync.Once
	def     *Registry
)

// Default returns the process-wide registry, created on first use; safe for concurrent use.
func Default() *Registry {
	defOnce.Do(func() { def = New() })
	return def
}
