// Package lsptest holds what the language server's tests share: a client that records what the
// server publishes.
package lsptest

import (
	"context"

	"go.lsp.dev/protocol"
)

// Recorder is an LSP client that keeps the diagnostics the server publishes (buffered: Diags
// holds up to 64 before the server waits) and accepts registrations and messages.
type Recorder struct {
	protocol.UnimplementedClient
	Diags chan *protocol.PublishDiagnosticsParams
}

// NewRecorder returns a Recorder with its channel made.
func NewRecorder() *Recorder {
	return &Recorder{Diags: make(chan *protocol.PublishDiagnosticsParams, 64)}
}

// PublishDiagnostics records p.
func (r *Recorder) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	r.Diags <- p
	return nil
}

// RegisterCapability accepts every registration.
func (r *Recorder) RegisterCapability(context.Context, *protocol.RegistrationParams) error {
	return nil
}

// ShowMessage ignores messages.
func (r *Recorder) ShowMessage(context.Context, *protocol.ShowMessageParams) error { return nil }
