package sim

import (
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// packet is a frame travelling through the simulator: on the medium it is
// an 802.11 frame with its transmit parameters; on the wire an 802.3 frame.
// Packets are recycled through the Sim's free list so that a long run does
// not allocate per frame.
type packet struct {
	b     []byte // the frame; for AP frames the radiotap TX header comes first
	rtLen int    // radiotap header length in b (AP frames only)

	from     int // medium node index of the transmitter (0 = the AP)
	ac       ieee80211.AC
	rate     radio.Rate
	group    bool // addressed to a group: no ACK, no retries, never "failed"
	noAck    bool
	limit    int    // attempts allowed
	airtime  uint32 // µs of one attempt: PPDU + SIFS + ACK (no channel access)
	attempts int
	acked    bool
	own      bool // sent by the AP's radio itself (a scan's probe): no echo, not counted
}

// frame returns the 802.11 part.
func (p *packet) frame() ieee80211.Frame { return ieee80211.Frame(p.b[p.rtLen:]) }

func (s *Sim) newPacket() *packet {
	if n := len(s.free); n > 0 {
		p := s.free[n-1]
		s.free = s.free[:n-1]
		return p
	}
	return &packet{b: make([]byte, 0, 2048)}
}

func (s *Sim) freePacket(p *packet) {
	b := p.b[:0]
	*p = packet{b: b}
	s.free = append(s.free, p)
}

// copyPacket returns a fresh packet holding a copy of b.
func (s *Sim) copyPacket(b []byte) *packet {
	p := s.newPacket()
	p.b = append(p.b[:0], b...)
	return p
}
