package main

import (
	"io"
	"os"
)

// keyboard is top's input: the keys the operator types, and how to put the
// terminal back as it was. On a terminal airqctl reads key by key (no
// echo, no line editing; Ctrl-C still interrupts), as top(1) does.
type keyboard struct {
	keys    io.Reader // nil: no input (stdin is not a terminal)
	restore func()    // undoes the terminal's key-by-key mode; never nil
}

// stdinKeyboard switches stdin, when it is a terminal, to key-by-key
// reading.
func stdinKeyboard() keyboard {
	if !isTerminal(os.Stdin) {
		return keyboard{restore: func() {}}
	}
	restore, err := rawInput(int(os.Stdin.Fd()))
	if err != nil {
		return keyboard{restore: func() {}} // keys then come a line at a time; q<Enter> still quits
	}
	return keyboard{keys: os.Stdin, restore: restore}
}

// watchKeys closes quit when the operator types q (or Q), or Ctrl-C
// reaches it as a byte (a terminal without signals); it returns at the end
// of the input. Other keys are ignored.
func watchKeys(r io.Reader, quit chan<- struct{}) {
	var b [64]byte
	for {
		n, err := r.Read(b[:])
		for _, c := range b[:n] {
			if c == 'q' || c == 'Q' || c == 0x03 {
				close(quit)
				return
			}
		}
		if err != nil {
			return
		}
	}
}
