package site

import (
	"fmt"
	"net"
	"net/http"
)

// Handler serves a built site. Go's file server already sends application/wasm for .wasm, which
// WebAssembly.instantiateStreaming requires.
func Handler(dir string) http.Handler {
	return http.FileServer(http.Dir(dir))
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
