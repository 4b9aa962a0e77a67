//go:build !linux

package hwsimnl

import (
	"errors"
	"time"
)

var errUnsupported = errors.New("hwsimnl: mac80211_hwsim's netlink family needs Linux")

// Conn is unavailable outside Linux; every method fails.
type Conn struct{ Family uint16 }

// Dial fails outside Linux.
func Dial() (*Conn, error) { return nil, errUnsupported }

// Register fails outside Linux.
func (c *Conn) Register(func(Message)) error { return errUnsupported }

// Send fails outside Linux.
func (c *Conn) Send([]byte) error { return errUnsupported }

// Recv fails outside Linux.
func (c *Conn) Recv([]byte, time.Duration) ([]byte, error) { return nil, errUnsupported }

// RecvNow fails outside Linux.
func (c *Conn) RecvNow([]byte) ([]byte, error) { return nil, errUnsupported }

// Close does nothing outside Linux.
func (c *Conn) Close() error { return nil }

// TightTimers fails outside Linux.
func TightTimers() error { return errUnsupported }
