package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
)

// MaxControlConns bounds the control connections served at once; more are
// answered EBUSY and closed, so a runaway script cannot grow the daemon.
const MaxControlConns = 16

// ControlServer serves the control protocol on a unix socket. One goroutine
// accepts and one per connection reads request lines; each request is handed
// to Run's loop over calls and answered there, because only the loop may
// touch the core. The daemon's own callers use the same path: the watchdog
// and /metrics through Call, reloads through Call and Reconfigure. A connection that
// asked for events is a subscriber: the loop Publishes each event to it
// without blocking, and the connection's goroutine writes it out.
//
// Lock order: mu only; nothing else is held with it.
type ControlServer struct {
	ln    *net.UnixListener // nil: in-process calls only
	path  string
	calls chan *ControlCall
	done  chan struct{} // closed by Close: stop waiting for the loop
	wg    sync.WaitGroup
	once  sync.Once

	log  *slog.Logger  // live changes; nil: not logged
	idle time.Duration // a connection without a request this long is closed

	mu    sync.Mutex
	conns map[net.Conn]struct{}    // guarded by mu
	subs  map[*subscriber]struct{} // guarded by mu
	// hostapd are the hostapd control sockets (hostapd.go); guarded by mu.
	hostapd []*hostapdIface
	closed  bool // guarded by mu
}

// ControlCall is one request on its way to the loop that owns the core;
// reply has room for the answer, so the loop never blocks on a slow client.
// A Reconfigure call carries a Reconfig instead of a request, and the loop
// leaves its outcome in removed and err before answering.
type ControlCall struct {
	req     ctl.Request
	read    *ctl.Request // answered just before req, in the same pass (logged changes)
	before  ctl.Reply    // read's reply
	reconf  *Reconfig
	applied bool // Serve applied reconf
	removed []ieee80211.MAC
	err     error
	reply   chan ctl.Reply
	// probe: a ProbeLoop call, answered with nothing but the time the
	// loop served it (served)
	probe  bool
	served time.Time
}

// Request is what the client asked.
func (c *ControlCall) Request() ctl.Request { return c.req }

// Answer hands the reply back to the connection; call it exactly once.
func (c *ControlCall) Answer(r ctl.Reply) { c.reply <- r }

// Serve answers the call from the loop that owns core, whose time is now:
// control answers a request (core.Control at the loop's time, or the
// simulator's Control), and a Reconfigure call is applied to the core. It
// calls Answer.
func (c *ControlCall) Serve(core *ap.AP, now time.Duration, control func(ctl.Request) ctl.Reply) {
	if c.probe {
		c.served = time.Now()
		c.Answer(ctl.Reply{})
		return
	}
	if c.reconf != nil {
		c.removed, c.err = c.reconf.apply(core, now, control)
		c.applied = true
		c.Answer(ctl.Reply{})
		return
	}
	if c.read != nil {
		c.before = control(*c.read)
	}
	c.Answer(control(c.req))
}

// Calls is the channel of requests for a loop other than Run's (the
// simulator's, say), which must answer each one from the goroutine that
// owns the core. Run reads it itself when given WithControl.
func (s *ControlServer) Calls() <-chan *ControlCall { return s.calls }

// Addr is the socket's path; empty without a socket.
func (s *ControlServer) Addr() string { return s.path }

func (s *ControlServer) accept() {
	for {
		c, err := s.ln.Accept()
		if errors.Is(err, net.ErrClosed) {
			return // Close closed the listener
		}
		if err != nil {
			// Out of descriptors and the like: the daemon keeps
			// serving the radio; try again without spinning.
			select {
			case <-s.done:
				return
			case <-time.After(100 * time.Millisecond):
			}
			continue
		}
		if err := s.track(c); err != nil {
			// Refused: say why, without letting a client that never
			// reads hold up the accept loop. The client reads the reason
			// even when its request meets the closed socket.
			c.SetWriteDeadline(time.Now().Add(time.Second))
			r := ctl.Errorf(ctl.EBUSY, "%v", err)
			r.WriteTo(c)
			c.Close()
			continue
		}
		s.wg.Go(func() {
			defer s.untrack(c)
			ctl.Serve(&idleConn{UnixConn: c.(*net.UnixConn), idle: s.idle}, &controlConn{s: s, c: c})
		})
	}
}

// track registers c, or says why it is refused: closing, or full.
func (s *ControlServer) track(c net.Conn) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return errShutdown
	case len(s.conns) == MaxControlConns:
		return fmt.Errorf("airqd serves at most %d control connections and all are open; "+
			"an idle one closes after %v without a request: close other clients or try again", MaxControlConns, s.idle)
	}
	s.conns[c] = struct{}{}
	return nil
}

func (s *ControlServer) untrack(c net.Conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
	c.Close()
}

// ask hands req to the loop and waits for its answer.
func (s *ControlServer) ask(req ctl.Request) ctl.Reply {
	r, _ := s.send(context.Background(), &ControlCall{req: req, reply: make(chan ctl.Reply, 1)})
	return r
}

var errShutdown = errors.New("airqd is shutting down")

// send hands call to the loop and waits for the answer, until the server
// closes or ctx ends.
func (s *ControlServer) send(ctx context.Context, call *ControlCall) (ctl.Reply, error) {
	cancel := ctx.Done()
	select {
	case s.calls <- call:
	case <-s.done:
		return ctl.Errorf(ctl.EBUSY, "%v", errShutdown), errShutdown
	case <-cancel:
		return ctl.Errorf(ctl.EBUSY, "%v", ctx.Err()), ctx.Err()
	}
	select {
	case r := <-call.reply:
		return r, nil
	case <-s.done:
		return ctl.Errorf(ctl.EBUSY, "%v", errShutdown), errShutdown
	case <-cancel:
		return ctl.Errorf(ctl.EBUSY, "%v", ctx.Err()), ctx.Err()
	}
}

// Call answers req from the loop as a connection's request would be, for
// the daemon's own use: reloads, and the watchdog's proof that the loop
// runs. err is a transport error (ctx ended, the server closed) or the
// reply's own error.
func (s *ControlServer) Call(ctx context.Context, req ctl.Request) (ctl.Reply, error) {
	r, err := s.send(ctx, &ControlCall{req: req, reply: make(chan ctl.Reply, 1)})
	if err != nil {
		return r, err
	}
	return r, r.Err()
}

// subscriber is an events connection: the loop fills ch without blocking
// and counts what did not fit.
type subscriber struct {
	ch   chan ctl.Event
	lost atomic.Uint64
}

// subscriberQueue is how many events wait for a slow events client.
const subscriberQueue = 256

// Publish hands e to every events connection without blocking: a client
// that does not keep up loses events and is told how many. Call it from
// the loop that owns the core. Refusals are not streamed: hostapd only
// logs them.
func (s *ControlServer) Publish(e ap.Event) {
	s.mu.Lock()
	s.publishHostapdLocked(e)
	s.mu.Unlock()
	if e.Kind != ap.EventConnected && e.Kind != ap.EventDisconnected && e.Kind != ap.EventHandshakeCompleted {
		return
	}
	ev := ctl.Event{Kind: e.Kind.String(), Addr: ctl.MAC(e.Addr), AID: e.AID, BSS: e.BSS}
	if e.Kind == ap.EventHandshakeCompleted {
		ev.AID = 0 // hostapd_cli's line has the address alone
	}
	if e.Kind == ap.EventDisconnected {
		ev.Reason = e.Reason
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for sub := range s.subs {
		select {
		case sub.ch <- ev:
		default:
			sub.lost.Add(1)
		}
	}
}

func (s *ControlServer) subscribe() *subscriber {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	sub := &subscriber{ch: make(chan ctl.Event, subscriberQueue)}
	s.subs[sub] = struct{}{}
	return sub
}

func (s *ControlServer) unsubscribe(sub *subscriber) {
	s.mu.Lock()
	delete(s.subs, sub)
	s.mu.Unlock()
}

// controlConn serves one connection: requests through the loop, and the
// events stream.
type controlConn struct {
	s *ControlServer
	c net.Conn
}

func (cc *controlConn) Control(req ctl.Request) ctl.Reply {
	if cc.s.log != nil && logsChange(req.Op) {
		return cc.s.change(req)
	}
	return cc.s.ask(req)
}

// DumpStations streams a station dump: the loop fills one page at a time
// into this connection's buffer and the page is written before the next is
// asked for, so neither the loop nor the daemon ever holds a whole table's
// dump, and a slow reader holds up only its own connection.
func (cc *controlConn) DumpStations(w io.Writer, req ctl.Request) error {
	return ctl.WriteStationDump(w, func(p *ctl.StationPage) ctl.Reply {
		return cc.s.ask(ctl.Request{Op: ctl.OpStationDump, Page: p, Dev: req.Dev})
	})
}

// eventWriteTimeout bounds one event line's write to a client that does not
// read; the stream ends then.
const eventWriteTimeout = 5 * time.Second

// Stream serves the events request: the reply, then a line per event until
// the client closes its end (a reader on the connection sees EOF) or the
// server closes.
func (cc *controlConn) Stream(req ctl.Request, w io.Writer) error {
	sub := cc.s.subscribe()
	if sub == nil {
		r := ctl.Errorf(ctl.EBUSY, "%v", errShutdown)
		_, err := r.WriteTo(w)
		return err
	}
	defer cc.s.unsubscribe(sub)
	cc.c.SetReadDeadline(time.Time{}) // a subscriber sends nothing: never idle
	ok := ctl.Reply{}
	if _, err := ok.WriteTo(w); err != nil {
		return err
	}
	// Nothing more is read from a subscriber: reading only tells us it
	// left. The goroutine ends when the connection is closed (untrack) or
	// shut for reading (Close).
	gone := make(chan struct{})
	cc.s.wg.Go(func() {
		io.Copy(io.Discard, cc.c)
		close(gone)
	})
	var line []byte
	write := func(e *ctl.Event) error {
		line = e.AppendText(line[:0])
		cc.c.SetWriteDeadline(time.Now().Add(eventWriteTimeout))
		_, err := w.Write(line)
		return err
	}
	for {
		select {
		case <-gone:
			return nil
		case <-cc.s.done:
			return nil
		case e := <-sub.ch:
			if n := sub.lost.Swap(0); n > 0 {
				if err := write(&ctl.Event{Kind: ctl.EventsLost, Lost: n}); err != nil {
					return err
				}
			}
			if err := write(&e); err != nil {
				return err
			}
		}
	}
}

// closeGrace bounds how long Close lets a connection write its last reply.
const closeGrace = time.Second

// Close stops accepting, removes the socket file, ends every connection and
// waits for the goroutines. A request still waiting for the loop is
// answered EBUSY: connections are shut for reading (which wakes blocked
// reads with EOF) rather than closed, so that reply is still written, and a
// deadline bounds a client that does not read. It may be called more than
// once.
func (s *ControlServer) Close() error {
	var err error
	s.once.Do(func() {
		s.mu.Lock()
		s.closed = true
		close(s.done)
		if s.ln != nil {
			err = s.ln.Close() // unlinks the socket file
		}
		for c := range s.conns {
			c.SetDeadline(time.Now().Add(closeGrace))
			if uc, ok := c.(*net.UnixConn); ok {
				uc.CloseRead()
			}
		}
		s.mu.Unlock()
		s.wg.Wait()
	})
	return err
}

// Option configures Run.
type Option func(*runOptions)

type runOptions struct {
	control     *ControlServer
	keepControl bool // WithControlOpen: Run leaves control open
	tuner       Retuner
	survey      *surveyTracker // nil: no radio survey (survey.go)
}

// WithControl makes Run answer the control requests s receives, from its
// loop, and close s on the way out (before the stations are
// deauthenticated, so no request sees a core that is shutting down).
func WithControl(s *ControlServer) Option {
	return func(o *runOptions) { o.control = s }
}

// controlCalls is the channel the loop selects on: nil, never ready,
// without a control server.
func (o *runOptions) controlCalls() <-chan *ControlCall {
	if o.control == nil {
		return nil
	}
	return o.control.calls
}

// WithControlOpen is WithControl, except that Run leaves s open when it
// returns: the caller starts another loop on it (airqd restarts the radio
// for a BSS whose settings only a start applies) and closes s itself.
// Requests that arrive in between wait for that loop, within their own
// deadlines.
func WithControlOpen(s *ControlServer) Option {
	return func(o *runOptions) { o.control, o.keepControl = s, true }
}

func (o *runOptions) closeControl() {
	if o.control != nil && !o.keepControl {
		o.control.Close()
	}
}
