package nl80211

import (
	"errors"

	"github.com/mdlayher/netlink"
)

// ErrNotSupported is returned by Dial on operating systems without nl80211.
var ErrNotSupported = errors.New("nl80211: not supported on this OS")

// Error is a failed nl80211 operation. Err is the kernel's errno when the
// kernel refused the request (errors.Is(err, unix.EBUSY) works), otherwise
// the socket or decoding error. Message is the kernel's extended-ack text.
type Error struct {
	Op      string // "new interface mon0", "set channel", ...
	Err     error
	Message string
}

func (e *Error) Error() string {
	s := "nl80211: " + e.Op + ": " + e.Err.Error()
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// wrap turns err into an *Error for op, unpacking netlink's error so that the
// text names the errno and the kernel's message rather than the transport.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	e := &Error{Op: op, Err: err}
	var oe *netlink.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		e.Err, e.Message = oe.Err, oe.Message
	}
	return e
}
