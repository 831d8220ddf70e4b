//go:build !trainlint_lite

package doc

import "sync"

// Cache is a concurrent cache: sync.Map, whose Load, LoadOrStore and Store the engine's memos
// use (cache_lite.go has the light WebAssembly module's).
type Cache = sync.Map
