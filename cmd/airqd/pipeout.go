package main

import (
	"errors"
	"io"
	"sync/atomic"
	"syscall"
)

// readerGone is an output stream whose reader may leave first: stderr
// (the log) or stdout (the simulator's summary) piped into `tee`, which
// Ctrl-C ends together with airqd. With SIGPIPE caught (run) a write to
// the closed pipe fails with EPIPE instead of killing airqd mid-shutdown;
// the first EPIPE marks the stream gone and later writes are dropped, so
// the shutdown runs to its end (the stations' deauthentication, the
// capture flushed, the control socket removed) with nobody to read about
// it.
type readerGone struct {
	w    io.Writer
	gone atomic.Bool
}

func (r *readerGone) Write(b []byte) (int, error) {
	if r.gone.Load() {
		return len(b), nil
	}
	n, err := r.w.Write(b)
	if errors.Is(err, syscall.EPIPE) {
		r.gone.Store(true)
		return len(b), nil
	}
	return n, err
}
