package sim

import (
	"fmt"
	"net/netip"

	"github.com/airq/airq/internal/ieee80211"
)

// HostConfig describes a wired host behind a BSS's TAP.
type HostConfig struct {
	Addr ieee80211.MAC // default 02:00:00:00:20:NN
	IP   netip.Addr    // default 10.0.0.N
	// BSS is the index of the BSS whose wired side the host is on: 0 the
	// first (default), i the core's Config.BSSes[i-1]. Each BSS's wired
	// side is its own network, as each TAP joins its own bridge.
	BSS int
}

// Host is a machine on a BSS's wired side: the simulator plays the BSS's
// TAP, so what the host sends reaches the core through HandleWired with
// its BSS and what the core writes to that BSS's wired side reaches the
// host.
type Host struct {
	sim *Sim
	cfg HostConfig
	ip  *stack
	buf []byte
}

// AddHost adds a wired host. A host on a BSS the core does not carry is a
// mistake of the caller's: AddHost panics.
func (s *Sim) AddHost(cfg HostConfig) *Host {
	if cfg.BSS < 0 || cfg.BSS > len(s.cfg.AP.BSSes) {
		panic(fmt.Sprintf("sim: a host on BSS %d of a radio with %d", cfg.BSS, len(s.cfg.AP.BSSes)+1))
	}
	n := len(s.hosts) + 1
	if cfg.Addr.IsZero() {
		cfg.Addr = ieee80211.MAC{0x02, 0, 0, 0, 0x20, byte(n)}
	}
	if !cfg.IP.IsValid() {
		cfg.IP = netip.AddrFrom4([4]byte{10, 0, 0, byte(n)})
	}
	h := &Host{sim: s, cfg: cfg, buf: make([]byte, 0, 2048)}
	h.ip = newStack(s, cfg.Addr, cfg.IP, h.sendEth)
	s.hosts = append(s.hosts, h)
	s.hostMAC[cfg.Addr] = h
	return h
}

// Addr returns the host's MAC address.
func (h *Host) Addr() ieee80211.MAC { return h.cfg.Addr }

// BSS returns the index of the BSS whose wired side the host is on.
func (h *Host) BSS() int { return h.cfg.BSS }

// IP returns the host's IPv4 address.
func (h *Host) IP() netip.Addr { return h.cfg.IP }

// Stack returns the host's IP-stack counters.
func (h *Host) Stack() StackStats { return h.ip.stats }

func (h *Host) stack() *stack { return h.ip }

// sendEth writes one 802.3 frame to its BSS's TAP.
func (h *Host) sendEth(da ieee80211.MAC, etherType uint16, payload []byte) {
	p := h.sim.newPacket()
	p.b = ieee80211.AppendEtherHdr(p.b[:0], da, h.cfg.Addr, etherType)
	p.b = append(p.b, payload...)
	h.sim.toCoreWired(h.cfg.BSS, p)
}

// SendRaw writes an arbitrary frame to the first BSS's TAP as if a host
// had sent it.
func (s *Sim) SendRaw(eth []byte) { s.SendRawOn(0, eth) }

// SendRawOn writes an arbitrary frame to the TAP of BSS bss (HostConfig.BSS)
// as if a host had sent it.
func (s *Sim) SendRawOn(bss int, eth []byte) { s.toCoreWired(bss, s.copyPacket(eth)) }

// toCoreWired sends p from the TAP of BSS bss towards the core.
func (s *Sim) toCoreWired(bss int, p *packet) {
	s.stats.WiredToCore++
	s.schedule(s.now+s.cfg.WiredLatency, evWiredIn, bss, p, nil)
}

// toHosts delivers a frame the core wrote to the wired side of BSS bss to
// the hosts on that side.
func (s *Sim) toHosts(bss int, p *packet) {
	s.log.bytes(p.b)
	s.stats.WiredOut[bss]++
	eh, err := ieee80211.ParseEtherHdr(p.b)
	if err != nil {
		s.stats.WiredUnclaimed++
		return
	}
	da := eh.Dst()
	if !da.IsMulticast() {
		h, ok := s.hostMAC[da]
		if !ok || h.cfg.BSS != bss {
			s.stats.WiredUnclaimed++
			return
		}
		h.ip.input(da, eh.Src(), eh.EtherType(), eh.Payload())
		return
	}
	for _, h := range s.hosts {
		if h.cfg.BSS == bss {
			h.ip.input(da, eh.Src(), eh.EtherType(), eh.Payload())
		}
	}
}

// Endpoint is a station or a wired host: something traffic runs between.
type Endpoint interface {
	IP() netip.Addr
	stack() *stack
}

var (
	_ Endpoint = (*Station)(nil)
	_ Endpoint = (*Host)(nil)
)
