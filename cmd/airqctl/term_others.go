//go:build !linux

package main

import "errors"

// rawInput is Linux's: elsewhere top reads its keys a line at a time.
func rawInput(int) (func(), error) {
	return nil, errors.New("key-by-key input is implemented on Linux only")
}
