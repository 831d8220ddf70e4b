package site

import (
	"net"
	"net/http"
)

// Handler serves a built site. Go's file server already sends application/wasm for .wasm, which
// WebAssembly.instantiateStreaming requires.
func Handler(dir string) http.Handler {
	return http.FileServer(http.Dir(dir))
}

// Listen opens a loopback listener: the site is served to this machine only.
func Listen(addr string) (net.Listener, error) {
	if addr == "" {
		addr = "127.0.0.1:8080"
	}
	return net.Listen("tcp", addr)
}
