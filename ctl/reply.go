package ctl

import (
	"fmt"
)

// Errno says whether a request succeeded; the values are Linux errno
// numbers so that scripts can treat them like a failed system call.
type Errno uint16

// The errnos the daemon replies with.
const (
	OK          Errno = 0
	ENOENT      Errno = 2  // no such station
	ENODEV      Errno = 19 // no BSS of that name
	EBUSY       Errno = 16 // the core cannot do it now
	EINVAL      Errno = 22 // malformed request or argument out of range
	EPROTO      Errno = 71 // the request line is not part of the protocol
	EOPNOTSUPP  Errno = 95 // valid request the daemon does not implement
	maxStations       = 2007
	maxBSSes          = 8192 // far above any table's size
	maxSurveys        = 1024 // channels
	maxRateRows       = 1024 // rates of one station
)

func (e Errno) String() string {
	switch e {
	case OK:
		return "ok"
	case ENOENT:
		return "no such station"
	case ENODEV:
		return "no such device"
	case EBUSY:
		return "busy"
	case EINVAL:
		return "invalid argument"
	case EPROTO:
		return "protocol error"
	case EOPNOTSUPP:
		return "not supported"
	}
	return fmt.Sprintf("errno %d", uint16(e))
}

// Reply is the answer to one request: an errno and, on success, the data
// the request asked for. Only the fields of that request are set.
type Reply struct {
	Errno     Errno       `json:"errno"`
	Error     string      `json:"error,omitempty"`
	Status    *Status     `json:"status,omitempty"`
	Stations  []Station   `json:"stations,omitempty"`
	AQL       *AQL        `json:"aql,omitempty"`
	Scheduler *Scheduler  `json:"scheduler,omitempty"`
	Scan      *ScanStatus `json:"scan,omitempty"`
	BSSes     []BSS       `json:"bsses,omitempty"`
	Surveys   []Survey    `json:"surveys,omitempty"`
	Rates     *RateTable  `json:"rates,omitempty"`
	ACS       *ACS        `json:"acs,omitempty"`
	Airtime   *Airtime    `json:"airtime,omitempty"`
	Devs      []Dev       `json:"devs,omitempty"`
	// PMK, in process only (no text or JSON form), answers OpStationPMK.
	PMK []byte `json:"-"`
}

// Errorf returns a failed reply with a formatted message.
func Errorf(errno Errno, format string, args ...any) Reply {
	return Reply{Errno: errno, Error: fmt.Sprintf(format, args...)}
}

// Err returns nil for a successful reply, otherwise an *Error.
func (r *Reply) Err() error {
	if r.Errno == OK {
		return nil
	}
	return &Error{Errno: r.Errno, Message: r.Error}
}

// Error is a reply's failure as a Go error.
type Error struct {
	Errno   Errno
	Message string
}

func (e *Error) Error() string {
	if e.Message == "" {
		return e.Errno.String()
	}
	return e.Message
}
