package ctl

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Handler answers requests. Serve calls it from the goroutine that called
// Serve, one request at a time.
type Handler interface {
	Control(req Request) Reply
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(req Request) Reply

// Control calls f.
func (f HandlerFunc) Control(req Request) Reply { return f(req) }

// StationDumper streams a station dump (WriteStationDump) instead of
// answering it whole through Control; req is the dump's request, whose
// Dev each page's request carries.
type StationDumper interface {
	DumpStations(w io.Writer, req Request) error
}

// Serve reads request lines from rw and writes one reply for each until
// rw reports EOF (nil is returned) or an error. A line that is not a valid
// request gets an EINVAL reply naming the problem, without reaching h; an
// over-long line gets an EPROTO reply and ends the session, since the rest
// of the stream cannot be trusted to be aligned on lines. The events request
// goes to h's Stream when h is a Streamer, and the session ends with the
// stream; other handlers answer it like any request. A station dump goes
// to h's DumpStations when h is a StationDumper.
func Serve(rw io.ReadWriter, h Handler) error {
	br := bufio.NewReaderSize(rw, MaxRequestLen)
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			rep := Errorf(EPROTO, "request longer than %d bytes", MaxRequestLen)
			_, werr := rep.WriteTo(rw)
			return errors.Join(errors.New("ctl: request too long"), werr)
		}
		if err == io.EOF && len(line) == 0 {
			return nil
		}
		if err != nil && err != io.EOF {
			return err
		}
		req, perr := ParseRequest(string(line))
		if st, ok := h.(Streamer); ok && perr == nil && req.Op == OpEvents {
			return st.Stream(req, rw)
		}
		if d, ok := h.(StationDumper); ok && perr == nil && req.Op == OpStationDump {
			if werr := d.DumpStations(rw, req); werr != nil {
				return werr
			}
		} else if _, werr := answer(req, perr, h).WriteTo(rw); werr != nil {
			return werr
		}
		if err == io.EOF { // a last request without a newline is still answered
			return nil
		}
	}
}

func answer(req Request, err error, h Handler) *Reply {
	if err != nil {
		r := Errorf(EINVAL, "%v", err)
		return &r
	}
	r := h.Control(req)
	return &r
}

// Client sends requests over one connection and reads the replies. It is
// not safe for concurrent use: requests and replies alternate.
type Client struct {
	r *bufio.Reader
	w io.Writer
}

// NewClient returns a client on rw; the caller keeps ownership of rw and
// closes it.
func NewClient(rw io.ReadWriter) *Client {
	return &Client{r: bufio.NewReaderSize(rw, MaxReplyLine), w: rw}
}

// Do sends req and returns the reply. err is a transport or decoding
// error, or the reply's own *Error when its errno is not OK.
func (c *Client) Do(req Request) (Reply, error) {
	return c.DoLine(req.String())
}

// DoLine sends a raw request line, so that the server's own validation can
// be exercised; it must not contain a newline.
func (c *Client) DoLine(line string) (Reply, error) {
	if strings.ContainsRune(line, '\n') {
		return Reply{}, fmt.Errorf("ctl: request %q contains a newline", line)
	}
	if _, err := io.WriteString(c.w, line+"\n"); err != nil {
		// A server that refuses the connection (EBUSY) answers and
		// closes before reading: its reason is waiting to be read.
		if rep, rerr := ReadReply(c.r); rerr == nil && rep.Errno != OK {
			return rep, rep.Err()
		}
		return Reply{}, fmt.Errorf("ctl: send %q: %w", line, err)
	}
	rep, err := ReadReply(c.r)
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return Reply{}, fmt.Errorf("ctl: %s: %w", line, err)
	}
	return rep, rep.Err()
}
