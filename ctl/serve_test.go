package ctl

import (
	"errors"
	"io"
	"net"
	"reflect"
	"strings"
	"testing"
)

// fake answers from the sample replies, the way a core would.
func fake(req Request) Reply {
	switch req.Op {
	case OpStatus:
		return Reply{Status: sampleStatus()}
	case OpStationGet:
		if MAC(req.Addr) == sampleStations()[0].Addr {
			return Reply{Stations: sampleStations()[:1]}
		}
		return Errorf(ENOENT, "station %s: not found", req.Addr)
	}
	return Errorf(EOPNOTSUPP, "%s: not supported here", req)
}

func TestServeAndClient(t *testing.T) {
	cli, srv := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- Serve(srv, HandlerFunc(fake)); srv.Close() }()
	c := NewClient(cli)

	r, err := c.Do(Request{Op: OpStatus})
	if err != nil || !reflect.DeepEqual(r.Status, sampleStatus()) {
		t.Errorf("status: %+v, %v", r, err)
	}
	r, err = c.Do(Request{Op: OpStationGet, Addr: sta})
	if err != nil || len(r.Stations) != 1 || r.Stations[0].Addr != MAC(sta) {
		t.Errorf("station get: %+v, %v", r, err)
	}
	var e *Error
	if _, err = c.DoLine("station get 02:00:00:00:09:09"); !errors.As(err, &e) || e.Errno != ENOENT {
		t.Errorf("unknown station: %v", err)
	}
	// The server validates too: a client that skips ParseRequest still gets
	// a reply naming the problem, and the session goes on.
	if _, err = c.DoLine("aql set XX 1 2"); !errors.As(err, &e) || e.Errno != EINVAL || !strings.Contains(e.Message, `AC "XX"`) {
		t.Errorf("bad request: %v", err)
	}
	if _, err = c.DoLine("status\nstatus"); err == nil {
		t.Error("a request with a newline was sent")
	}
	if _, err := c.Do(Request{Op: OpStatus}); err != nil {
		t.Errorf("session broken after errors: %v", err)
	}
	cli.Close()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func TestServeTooLong(t *testing.T) {
	cli, srv := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- Serve(srv, HandlerFunc(fake)); srv.Close() }()
	go cli.Write([]byte(strings.Repeat("a", 2*MaxRequestLen) + "\n"))
	c := NewClient(cli)
	rep, err := ReadReply(c.r)
	if err != nil || rep.Errno != EPROTO {
		t.Errorf("reply %+v, %v; want EPROTO", rep, err)
	}
	if err := <-done; err == nil {
		t.Error("Serve went on after an over-long line")
	}
	cli.Close()
}

// A last request without a newline (e.g. `printf status | socat`) is
// answered before Serve returns.
func TestServeLastLine(t *testing.T) {
	var out strings.Builder
	rw := struct {
		io.Reader
		io.Writer
	}{strings.NewReader("status"), &out}
	if err := Serve(rw, HandlerFunc(fake)); err != nil {
		t.Fatal(err)
	}
	r, err := DecodeReply([]byte(out.String()))
	if err != nil || r.Status == nil {
		t.Errorf("%+v, %v", r, err)
	}
}
