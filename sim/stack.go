package sim

import (
	"encoding/binary"
	"net/netip"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

const (
	etherIPv4 = 0x0800
	etherARP  = 0x0806
	protoICMP = 1
	protoUDP  = 17
)

// StackStats are what an endpoint's IP stack counted.
type StackStats struct {
	RxFrames, TxFrames      uint64
	ARPRequests, ARPReplies uint64 // sent
	EchoReplies             uint64 // ICMP echo requests answered
	NotForUs, Unresolved    uint64 // dropped: other destination; no neighbour after ARP
	UDPNoPort               uint64
}

// udpHandler receives a UDP datagram's payload.
type udpHandler interface {
	udp(now time.Duration, src netip.Addr, srcPort uint16, payload []byte)
}

// stack is the small IPv4 stack of a station or a wired host: ARP (both
// sides), ICMP echo, and UDP to registered ports. Packets waiting for ARP
// are held, a few per destination.
type stack struct {
	sim   *Sim
	mac   ieee80211.MAC
	ip    [4]byte
	out   func(da ieee80211.MAC, etherType uint16, payload []byte)
	arp   map[[4]byte]ieee80211.MAC
	wait  map[[4]byte]*arpWait
	udpH  map[uint16]udpHandler
	ping  map[uint16]*Ping
	ipID  uint16
	buf   []byte
	reply []byte

	stats StackStats
}

type arpWait struct {
	pkts  [][]byte
	asked time.Duration
}

const arpHold = 16 // packets held per unresolved neighbour

func newStack(s *Sim, mac ieee80211.MAC, ip netip.Addr, out func(ieee80211.MAC, uint16, []byte)) *stack {
	return &stack{sim: s, mac: mac, ip: ip.As4(), out: out,
		arp: map[[4]byte]ieee80211.MAC{}, wait: map[[4]byte]*arpWait{},
		udpH: map[uint16]udpHandler{}, ping: map[uint16]*Ping{},
		buf: make([]byte, 0, 2048), reply: make([]byte, 0, 2048)}
}

func (k *stack) send(da ieee80211.MAC, etherType uint16, payload []byte) {
	k.stats.TxFrames++
	k.out(da, etherType, payload)
}

// input takes one received MSDU.
func (k *stack) input(da, sa ieee80211.MAC, etherType uint16, payload []byte) {
	if da != k.mac && !da.IsMulticast() {
		k.stats.NotForUs++
		return
	}
	k.stats.RxFrames++
	switch etherType {
	case etherARP:
		k.inputARP(payload)
	case etherIPv4:
		k.inputIPv4(payload)
	}
}

// sendIP sends an IPv4 packet (header included) to dst, resolving it first
// if needed.
func (k *stack) sendIP(dst [4]byte, pkt []byte) {
	if mac, ok := k.arp[dst]; ok {
		k.send(mac, etherIPv4, pkt)
		return
	}
	w := k.wait[dst]
	if w == nil {
		w = &arpWait{asked: -time.Hour}
		k.wait[dst] = w
	}
	if len(w.pkts) < arpHold {
		w.pkts = append(w.pkts, append([]byte(nil), pkt...))
	} else {
		k.stats.Unresolved++
	}
	if k.sim.now-w.asked >= time.Second {
		w.asked = k.sim.now
		k.sendARP(1, ieee80211.Broadcast, ieee80211.MAC{}, dst)
	}
}

func (k *stack) sendARP(op uint16, da, tha ieee80211.MAC, tpa [4]byte) {
	b := binary.BigEndian.AppendUint16(k.reply[:0], 1) // Ethernet
	b = binary.BigEndian.AppendUint16(b, etherIPv4)
	b = append(b, 6, 4)
	b = binary.BigEndian.AppendUint16(b, op)
	b = append(b, k.mac[:]...)
	b = append(b, k.ip[:]...)
	b = append(b, tha[:]...)
	b = append(b, tpa[:]...)
	if op == 1 {
		k.stats.ARPRequests++
	} else {
		k.stats.ARPReplies++
	}
	k.send(da, etherARP, b)
}

func (k *stack) inputARP(p []byte) {
	if len(p) < 28 || binary.BigEndian.Uint16(p[6:]) > 2 {
		return
	}
	op := binary.BigEndian.Uint16(p[6:])
	sha, spa, tpa := ieee80211.MAC(p[8:14]), [4]byte(p[14:18]), [4]byte(p[24:28])
	if tpa != k.ip {
		return
	}
	k.arp[spa] = sha
	if op == 1 {
		k.sendARP(2, sha, sha, spa)
	}
	if w := k.wait[spa]; w != nil {
		delete(k.wait, spa)
		for _, pkt := range w.pkts {
			k.send(sha, etherIPv4, pkt)
		}
	}
}

func (k *stack) inputIPv4(p []byte) {
	if len(p) < 20 || p[0]>>4 != 4 {
		return
	}
	hl := int(p[0]&15) * 4
	tl := int(binary.BigEndian.Uint16(p[2:]))
	if hl < 20 || tl < hl || tl > len(p) {
		return
	}
	dst, src := [4]byte(p[16:20]), [4]byte(p[12:16])
	if dst != k.ip {
		k.stats.NotForUs++
		return
	}
	body := p[hl:tl]
	switch p[9] {
	case protoICMP:
		k.inputICMP(src, p[1], body)
	case protoUDP:
		if len(body) < 8 {
			return
		}
		h, ok := k.udpH[binary.BigEndian.Uint16(body[2:])]
		if !ok {
			k.stats.UDPNoPort++
			return
		}
		h.udp(k.sim.now, netip.AddrFrom4(src), binary.BigEndian.Uint16(body), body[8:])
	}
}

func (k *stack) inputICMP(src [4]byte, tos byte, b []byte) {
	if len(b) < 8 {
		return
	}
	switch b[0] {
	case 8: // echo request: answer with the same id, sequence and data
		k.stats.EchoReplies++
		r := append(k.reply[:0], b...)
		k.reply = r[:0]
		r[0] = 0
		k.sendICMP(src, tos, r)
	case 0:
		if pg := k.ping[binary.BigEndian.Uint16(b[4:])]; pg != nil {
			pg.reply(k.sim.now, b)
		}
	}
}

// sendICMP sends an ICMP message whose checksum it fills in.
func (k *stack) sendICMP(dst [4]byte, tos byte, msg []byte) {
	msg[2], msg[3] = 0, 0
	binary.BigEndian.PutUint16(msg[2:], checksum(msg))
	k.sendIP(dst, k.ipPacket(dst, protoICMP, tos, msg))
}

// sendUDP sends one datagram.
func (k *stack) sendUDP(dst netip.Addr, srcPort, dstPort uint16, tos byte, payload []byte) {
	u := binary.BigEndian.AppendUint16(k.reply[:0], srcPort)
	u = binary.BigEndian.AppendUint16(u, dstPort)
	u = binary.BigEndian.AppendUint16(u, uint16(8+len(payload)))
	u = append(u, 0, 0) // no checksum, legal for UDP over IPv4
	u = append(u, payload...)
	k.reply = u[:0]
	k.sendIP(dst.As4(), k.ipPacket(dst.As4(), protoUDP, tos, u))
}

// ipPacket builds an IPv4 header and body in k.buf; valid until the next
// call. body must not live in k.buf (callers assemble it in k.reply).
func (k *stack) ipPacket(dst [4]byte, proto, tos byte, body []byte) []byte {
	k.ipID++
	b := append(k.buf[:0], 0x45, tos)
	b = binary.BigEndian.AppendUint16(b, uint16(20+len(body)))
	b = binary.BigEndian.AppendUint16(b, k.ipID)
	b = append(b, 0x40, 0, 64, proto, 0, 0)
	b = append(b, k.ip[:]...)
	b = append(b, dst[:]...)
	binary.BigEndian.PutUint16(b[10:], checksum(b[:20]))
	b = append(b, body...)
	k.buf = b[:0]
	return b
}

func checksum(b []byte) uint16 {
	var s uint32
	for len(b) >= 2 {
		s += uint32(b[0])<<8 | uint32(b[1])
		b = b[2:]
	}
	if len(b) == 1 {
		s += uint32(b[0]) << 8
	}
	for s > 0xffff {
		s = s>>16 + s&0xffff
	}
	return ^uint16(s)
}
