package registry

import "sync"

// Registry maps names to handlers; safe for concurrent use.
type Registry struct {
	mu       sync.RWMutex
	handlers map[string]func()
}

// New returns an empty registry.
func New() *Registry { return &Registry{handlers: map[string]func(){}} }

// Register adds h under name.
func (r *Registry) Register(name string, h func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.handlers[name] = h
}
