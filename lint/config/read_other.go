//go:build !unix

package config

const openFlags = 0
