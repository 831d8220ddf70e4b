package site

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Handler serves a built site as GitHub Pages does: a missing path gets 404.html with status 404.
// Go's file server already sends application/wasm for .wasm, which
// WebAssembly.instantiateStreaming requires.
func Handler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := path.Clean("/" + r.URL.Path)
		if strings.HasSuffix(r.URL.Path, "/") {
			name = path.Join(name, "index.html")
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			if b, err := os.ReadFile(filepath.Join(dir, "404.html")); err == nil {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.WriteHeader(http.StatusNotFound)
				w.Write(b)
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}

// Listen opens a loopback listener ("127.0.0.1:8080" when addr is empty). Other addresses are
// refused: this server is for previewing the site on this machine.
func Listen(addr string) (net.Listener, error) {
	if addr == "" {
		addr = "127.0.0.1:8080"
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("serve on a loopback address (127.0.0.1:PORT), not %q", addr)
	}
	return net.Listen("tcp", addr)
}
