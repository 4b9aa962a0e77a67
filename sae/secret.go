package sae

import (
	"fmt"
	"io"
	"strconv"
)

// Every verb prints String, never the fields: %#v and the fields of an
// unexported struct bypass a String method, and these hold a password, a
// PMK, a KCK or a password element.

func (p Password) Format(f fmt.State, _ rune) { io.WriteString(f, p.String()) }
func (k Keys) Format(f fmt.State, _ rune)     { io.WriteString(f, k.String()) }

// String names the BSS's SSID and how many instances it holds.
func (a *Authenticator) String() string {
	return "sae authenticator(" + strconv.Quote(string(a.cfg.SSID)) + ", " + strconv.Itoa(len(a.peers)) + " instances)"
}

func (a *Authenticator) Format(f fmt.State, _ rune) { io.WriteString(f, a.String()) }

// String names the job's peer and group.
func (j *Job) String() string {
	return "sae job(" + macString(j.peer) + ", group " + strconv.Itoa(int(j.g.ID)) + ")"
}

func (j *Job) Format(f fmt.State, _ rune) { io.WriteString(f, j.String()) }

// String names the station's address and group.
func (s *Station) String() string {
	return "sae station(" + macString(s.own) + ", group " + strconv.Itoa(int(s.g.ID)) + ")"
}

func (s *Station) Format(f fmt.State, _ rune) { io.WriteString(f, s.String()) }
