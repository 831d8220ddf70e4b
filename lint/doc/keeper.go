package doc

import "sync"

// keeper keeps a few values of a reader's per-file state between files (at most keepMax: about
// one per file read at the same time), so the next file reuses their buffers. A sync.Pool would
// drop them at every garbage collection, which a lint run triggers often.
type keeper[T any] struct {
	sync.Mutex
	free []*T
}

const keepMax = 4

// get takes a kept value, or returns nil when none is kept.
func (k *keeper[T]) get() *T {
	k.Lock()
	defer k.Unlock()
	n := len(k.free)
	if n == 0 {
		return nil
	}
	v := k.free[n-1]
	k.free = k.free[:n-1]
	return v
}

// put keeps v for a later get, unless keepMax values are kept already.
func (k *keeper[T]) put(v *T) {
	k.Lock()
	if len(k.free) < keepMax {
		k.free = append(k.free, v)
	}
	k.Unlock()
}
