package sim

import (
	"net/netip"

	"github.com/airq/airq/internal/ieee80211"
)

// HostConfig describes a wired host behind the TAP.
type HostConfig struct {
	Addr ieee80211.MAC // default 02:00:00:00:20:NN
	IP   netip.Addr    // default 10.0.0.N
}

// Host is a machine on the wired side: the simulator plays the TAP, so
// what the host sends reaches the core through HandleWired and what the
// core writes to the wired side reaches the host.
type Host struct {
	sim *Sim
	cfg HostConfig
	ip  *stack
	buf []byte
}

// AddHost adds a wired host.
func (s *Sim) AddHost(cfg HostConfig) *Host {
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

// IP returns the host's IPv4 address.
func (h *Host) IP() netip.Addr { return h.cfg.IP }

// Stack returns the host's IP-stack counters.
func (h *Host) Stack() StackStats { return h.ip.stats }

func (h *Host) stack() *stack { return h.ip }

// sendEth writes one 802.3 frame to the TAP.
func (h *Host) sendEth(da ieee80211.MAC, etherType uint16, payload []byte) {
	p := h.sim.newPacket()
	p.b = ieee80211.AppendEtherHdr(p.b[:0], da, h.cfg.Addr, etherType)
	p.b = append(p.b, payload...)
	h.sim.stats.WiredToCore++
	h.sim.schedule(h.sim.now+h.sim.cfg.WiredLatency, evWiredIn, 0, p, nil)
}

// SendRaw writes an arbitrary frame to the TAP as if a host had sent it.
func (s *Sim) SendRaw(eth []byte) {
	s.stats.WiredToCore++
	s.schedule(s.now+s.cfg.WiredLatency, evWiredIn, 0, s.copyPacket(eth), nil)
}

// toHosts delivers a frame the core wrote to the wired side.
func (s *Sim) toHosts(p *packet) {
	s.log.bytes(p.b)
	eh, err := ieee80211.ParseEtherHdr(p.b)
	if err != nil {
		s.stats.WiredUnclaimed++
		return
	}
	da := eh.Dst()
	if !da.IsMulticast() {
		h, ok := s.hostMAC[da]
		if !ok {
			s.stats.WiredUnclaimed++
			return
		}
		h.ip.input(da, eh.Src(), eh.EtherType(), eh.Payload())
		return
	}
	for _, h := range s.hosts {
		h.ip.input(da, eh.Src(), eh.EtherType(), eh.Payload())
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
