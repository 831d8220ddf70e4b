//go:build trainlint_lite

package doc

import "sync"

// Cache is sync.Map's Load, LoadOrStore and Store over a map guarded by a mutex: sync.Map's
// hash trie (internal/sync, 16 KB of code) is kept out of the light WebAssembly module
// (site/doc.go). The zero Cache is empty and ready to use; it must not be copied.
type Cache struct {
	mu sync.Mutex
	m  map[any]any
}

// Load returns the value stored for key, if any.
func (c *Cache) Load(key any) (value any, ok bool) {
	c.mu.Lock()
	value, ok = c.m[key]
	c.mu.Unlock()
	return value, ok
}

// Store sets the value for key.
func (c *Cache) Store(key, value any) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[any]any{}
	}
	c.m[key] = value
	c.mu.Unlock()
}

// LoadOrStore returns the value stored for key if there is one (loaded true), else stores value
// and returns it.
func (c *Cache) LoadOrStore(key, value any) (actual any, loaded bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[key]; ok {
		return v, true
	}
	if c.m == nil {
		c.m = map[any]any{}
	}
	c.m[key] = value
	return value, false
}
