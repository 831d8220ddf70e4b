package doc

import "testing"

// TestCache holds Cache to the sync.Map methods the engine uses (the light module's own,
// cache_lite.go, is the same test's subject in a trainlint_lite build, and runs in TestParityLite).
func TestCache(t *testing.T) {
	var c Cache
	if v, ok := c.Load("a"); ok || v != nil {
		t.Fatalf("empty Load = %v, %v", v, ok)
	}
	if v, loaded := c.LoadOrStore("a", 1); loaded || v != 1 {
		t.Fatalf("first LoadOrStore = %v, %v", v, loaded)
	}
	if v, loaded := c.LoadOrStore("a", 2); !loaded || v != 1 {
		t.Fatalf("second LoadOrStore = %v, %v", v, loaded)
	}
	type k struct{ a, b string }
	c.Store(k{"x", "y"}, "z")
	c.Store("a", 3)
	if v, ok := c.Load(k{"x", "y"}); !ok || v != "z" {
		t.Fatalf("Load of a struct key = %v, %v", v, ok)
	}
	if v, ok := c.Load("a"); !ok || v != 3 {
		t.Fatalf("Load after Store = %v, %v", v, ok)
	}
}
