package nl80211

import (
	"errors"
	"fmt"
	"net"
	"os"
	"sync/atomic"

	"github.com/mdlayher/genetlink"
	"github.com/mdlayher/netlink"
)

// Conn is a connection to the kernel's nl80211 family.
//
// Interfaces created with NewMonitor belong to the Conn: closing it makes the
// kernel delete them.
type Conn struct {
	c      *genetlink.Conn
	family genetlink.Family
	closed atomic.Bool
	// isUp reports a netdev's IFF_UP; replaced in tests.
	isUp func(ifindex int) (bool, error)
}

// NewConn wraps an already dialled generic netlink connection (a genltest
// fake in tests) and resolves the nl80211 family on it. The Conn takes
// ownership of c.
func NewConn(c *genetlink.Conn) (*Conn, error) {
	f, err := c.GetFamily(genlName)
	if err != nil {
		c.Close()
		if errors.Is(err, os.ErrNotExist) {
			return nil, &Error{Op: "get family", Err: fmt.Errorf("%w (is cfg80211 loaded?)", err)}
		}
		return nil, wrap("get family", err)
	}
	return &Conn{c: c, family: f, isUp: linkIsUp}, nil
}

// Close closes the connection. Interfaces created on it are deleted by the
// kernel. Close may be called more than once.
func (c *Conn) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	return c.c.Close()
}

// request is one nl80211 command. Commands that send a reply must not ask for
// an acknowledgement (the extra ACK would be read as the next reply); commands
// without one must, or the exchange would wait forever.
func (c *Conn) request(op string, cmd uint8, flags netlink.HeaderFlags, enc func(*netlink.AttributeEncoder)) ([]genetlink.Message, error) {
	ae := netlink.NewAttributeEncoder()
	if enc != nil {
		enc(ae)
	}
	b, err := ae.Encode()
	if err != nil {
		return nil, wrap(op, err)
	}
	msg := genetlink.Message{
		Header: genetlink.Header{Command: cmd, Version: c.family.Version},
		Data:   b,
	}
	msgs, err := c.c.Execute(msg, c.family.ID, netlink.Request|flags)
	if err != nil {
		return nil, wrap(op, err)
	}
	return msgs, nil
}

// linkIsUp reads the administrative state of a netdev. An interface that has
// gone away in the meantime is reported down.
func linkIsUp(ifindex int) (bool, error) {
	ifi, err := net.InterfaceByIndex(ifindex)
	if err != nil {
		var ne *net.OpError
		if errors.As(err, &ne) || errors.Is(err, os.ErrNotExist) {
			return false, nil
		}
		return false, err
	}
	return ifi.Flags&net.FlagUp != 0, nil
}
