// Package lsptest holds what the language server's tests share: a client that records what the
// server publishes.
package lsptest

import (
	"context"

	"go.lsp.dev/protocol"
)

// Recorder is an LSP client that keeps the diagnostics the server publishes (buffered: Diags
// holds up to 64 before the server waits) and the registrations it asks for (Registrations
// keeps the first 8; later ones are accepted and dropped), and accepts messages.
type Recorder struct {
	protocol.UnimplementedClient
	Diags         chan *protocol.PublishDiagnosticsParams
	Registrations chan *protocol.RegistrationParams
}

// NewRecorder returns a Recorder with its channels made.
func NewRecorder() *Recorder {
	return &Recorder{Diags: make(chan *protocol.PublishDiagnosticsParams, 64),
		Registrations: make(chan *protocol.RegistrationParams, 8)}
}

// PublishDiagnostics records p.
func (r *Recorder) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	r.Diags <- p
	return nil
}

// RegisterCapability accepts every registration and records p.
func (r *Recorder) RegisterCapability(_ context.Context, p *protocol.RegistrationParams) error {
	select {
	case r.Registrations <- p:
	default:
	}
	return nil
}

// ShowMessage ignores messages.
func (r *Recorder) ShowMessage(context.Context, *protocol.ShowMessageParams) error { return nil }
