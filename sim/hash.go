package sim

import (
	"encoding/binary"
	"time"
)

// FNV-1a 64 constants. The log hash folds whole 64-bit words rather than
// bytes: it only has to change when the event sequence changes.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// eventLog is the running hash of everything the simulation did: event
// kinds and times, and the bytes of every frame put on the air or on the
// wire. Two runs with the same seed must end with the same value.
type eventLog struct {
	h uint64
	n uint64 // entries
}

func (l *eventLog) word(v uint64) { l.h = (l.h ^ v) * fnvPrime }

func (l *eventLog) note(at time.Duration, kind evKind, arg, ch int) {
	l.n++
	l.word(uint64(at))
	l.word(uint64(ch)<<40 | uint64(kind)<<32 | uint64(uint32(arg)))
}

func (l *eventLog) bytes(b []byte) {
	l.word(uint64(len(b)))
	for len(b) >= 8 {
		l.word(binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	var t [8]byte
	copy(t[:], b)
	l.word(binary.LittleEndian.Uint64(t[:]))
}
