//go:build !unix

package main

const openFlags = 0
