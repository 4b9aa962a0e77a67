package sim

import (
	"net/netip"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rsn"
)

// StationConfig describes one simulated client.
type StationConfig struct {
	Addr ieee80211.MAC // default 02:00:00:00:10:NN
	IP   netip.Addr    // default 10.0.0.(100+N)
	// Start is when the station starts looking for the BSS; it then probes
	// (or waits for a beacon when Passive), authenticates and associates.
	Start   time.Duration
	Passive bool
	// SSID is the network the station joins: one of the radio's BSSes
	// (ap.Config's SSID or one of its BSSes'); default the first's.
	// BSSID, when set, holds it to the BSS with that address. A
	// flooder's admission frames go to the BSS they name (FloodAssoc).
	SSID  string
	BSSID ieee80211.MAC
	// Loss is the probability that one attempt on the link between this
	// station and the AP is lost, in either direction; AckLoss the
	// probability that a delivered frame's ACK is lost (the sender retries
	// and the receiver sees a duplicate).
	Loss, AckLoss float64
	Signal        int8       // dBm as the AP hears it; default -50
	Rate          radio.Rate // uplink data rate; default the BSS's best
	NoWMM         bool       // associate without the WMM element: non-QoS data
	// Reconnect makes the station start over after the AP deauthenticates
	// it.
	Reconnect bool
	// HT and VHT make the station announce HT (and VHT) capabilities: one
	// spatial stream, short guard intervals, the BSS's configured width
	// (what it runs at may be less: 20/40 MHz coexistence), and A-MSDU
	// reception up to 7935 octets (HT) or 11454-octet MPDUs (VHT). Both
	// need WMM, as with mac80211.
	HT, VHT bool
	// Intolerant40 sets 40 MHz Intolerant in its HT Capabilities.
	Intolerant40 bool
	// Flood turns the station into a flooder: it never associates, and
	// sends this many frames per second, alternating wildcard probe
	// requests and open authentications, each from a fresh random address.
	Flood float64
	// FloodAssoc makes the flood an admission flood (flood.go): FloodAddrs
	// random addresses (default 3000) in turn authenticate and ask to
	// associate, at the station's Rate; the share FloodAcks (0 to 1) of
	// them acknowledge what the AP sends them, as real radios would.
	FloodAssoc bool
	FloodAddrs int
	FloodAcks  float64
	// FloodAtMedium makes an admission flooder send as fast as the medium
	// lets it, as an injector blocking on its radio does: it keeps
	// floodBacklog frames queued and sends the next when one leaves the
	// air, contending like any station. Flood is then ignored.
	FloodAtMedium bool
	// FloodDecoy sends, in place of each admission frame, an Action frame
	// of the same length from the same address, which the AP ignores (it
	// answers no Action frame from a stranger): the flood's airtime
	// without its admission, to tell the cost of the AP's answers from
	// that of the attacker's own frames.
	FloodDecoy bool
	// FloodAC is the access category a flooder's frames contend in: VO
	// (the zero value) as mac80211 queues injected management frames, or
	// BE to contend like the station it competes with.
	FloodAC ieee80211.AC
	// PowerSave makes the station doze as soon as it is associated and
	// behave as a legacy power-save client: it wakes for every beacon,
	// fetches frames the TIM announces with PS-Poll while More Data is set,
	// and stays awake after a DTIM that announces group frames.
	PowerSave bool
	// Passphrase makes the station join a WPA2 BSS (station_wpa.go) with
	// this passphrase, with AKM (default WPA-PSK if the AP offers it, else
	// WPA-PSK-SHA256). CheckNonces makes it record every (key, PN) the AP
	// sends it under, counting reuses in StationStats.NonceReuses (memory
	// grows with the frames: for tests).
	// UseAPKey makes it join with the AP's own passphrase or first PSK
	// (airqd -radio sim's stations know the network's secret).
	Passphrase string
	UseAPKey   bool
	AKM        rsn.AKM
	// SAE makes the station join a WPA3 BSS (station_sae.go).
	SAE *StationSAE
	// ExtendedKeyID offers Extended Key ID (wpa_supplicant's
	// extended_key_id=1).
	ExtendedKeyID bool
	CheckNonces   bool
	// NoMFP makes the station offer no management frame protection
	// (wpa_supplicant's ieee80211w=0); otherwise it negotiates MFP when
	// the AP offers it (station_pmf.go).
	NoMFP bool
}

type staState uint8

const (
	staIdle staState = iota
	staScanning
	staAuthenticating
	staAssociating
	staAssociated
)

// StationStats are what a station counted.
type StationStats struct {
	Probes, Auths, AssocReqs uint64
	Associations             uint64
	DeauthsReceived          uint64
	LastReason               uint16
	RxData, RxDuplicates     uint64 // data MSDUs handed to the IP stack; duplicates dropped
	RxGroup                  uint64 // of RxData, group addressed
	RxUnassociated           uint64 // data frames while not associated
	TxData, TxDropped        uint64 // MSDUs queued for the air; dropped (not associated)
	QueueDrops               uint64 // transmit queue full
	Beacons                  uint64
	SAECommits, PMKSAJoins   uint64 // SAE commits sent; associations with a cached PMKSA, no SAE
	PSPolls                  uint64
	RxAMSDUs, RxBadSubframes uint64 // A-MSDUs received; subframes that did not decode
	// WPA2: 4-way handshakes completed, first and rekeys; the ones the
	// supplicant gave up; frames it dropped, by reason; (key, PN) pairs
	// that covered two frames (with CheckNonces).
	Handshakes, Rekeys, HandshakeFailures uint64
	TxEAPOL                               uint64
	RxUnprotected, RxUndecryptable        uint64
	RxReplayed, RxMICFailures             uint64
	NonceReuses                           uint64
	// MFP: unprotected robust frames from the AP dropped; protected or
	// BIP frames that failed their checks; the AP's SA Query Requests
	// answered; Responses to the station's own.
	RxMgmtUnprotected, RxMgmtDropped  uint64
	SAQueryAnswered, SAQueryResponses uint64
	SAQueryTimeouts                   uint64 // its own SA Queries unanswered: it left
	AssociatedAt, ConnectedFor        time.Duration
}

// Station is a simulated client: the MLME of a station, a transmitter on
// the medium and a small IP stack.
type Station struct {
	sim  *Sim
	cfg  StationConfig
	node *node
	ip   *stack

	state  staState
	wantUp bool
	gen    int // timer generation
	bssid  ieee80211.MAC
	aid    uint16
	qos    bool
	dozing bool
	// polled: a dozing station's receiver is on for the answer to its
	// PS-Poll; groupAwake: on for group frames after a DTIM announced them.
	polled, groupAwake bool

	tries   int // of the current authentication or association
	seqMgmt uint16
	seqTID  [ieee80211.NumTIDs]uint16
	rxSeq   [ieee80211.NumTIDs + 1]uint16
	rxValid [ieee80211.NumTIDs + 1]bool

	apRSNE []byte    // the AP's RSNE, from the beacon that picked the BSS
	crypto *wpaState // the RSN association; nil on an open network
	rxBuf  []byte    // plaintext of the frame being received
	nonces map[nonceUse][32]byte
	sae    saeStation // its SAE exchange and PMKSA (station_sae.go)

	buf     []byte
	stats   StationStats
	floodSt *floodState // an admission flooder's addresses
}

// AddStation adds a station to the medium; it starts at cfg.Start.
func (s *Sim) AddStation(cfg StationConfig) *Station {
	n := len(s.stations) + 1
	if cfg.Addr.IsZero() {
		cfg.Addr = ieee80211.MAC{0x02, 0, 0, 0, 0x10 + byte(n>>8), byte(n)}
	}
	if !cfg.IP.IsValid() {
		cfg.IP = netip.AddrFrom4([4]byte{10, 0, byte(n >> 8), byte(100 + n)})
	}
	if cfg.SSID == "" {
		cfg.SSID = s.cfg.AP.SSID
	}
	if cfg.Signal == 0 {
		cfg.Signal = -50
	}
	if cfg.Rate.Mode == radio.ModeNone && s.cfg.Medium.SignalLoss {
		cfg.Rate = uplinkRate(s.stationRates(cfg), cfg.Signal)
	}
	if cfg.Rate.Mode == radio.ModeNone {
		cfg.Rate = s.med.best
		// An HT/VHT station's own rate control would send at its best MCS:
		// one stream, short GI, the BSS's width.
		phy := s.bssPHY(cfg)
		switch {
		case cfg.VHT && phy.VHT:
			cfg.Rate = radio.Rate{Mode: radio.ModeVHT, MCS: 9, NSS: 1, Bandwidth: radio.Bandwidth(phy.Width), ShortGI: true}
		case (cfg.HT || cfg.VHT) && phy.HT:
			cfg.Rate = radio.Rate{Mode: radio.ModeHT, MCS: 7, Bandwidth: radio.Bandwidth(min(phy.Width, 40)), ShortGI: true}
		}
	}
	st := &Station{sim: s, cfg: cfg, wantUp: true, buf: make([]byte, 0, 2048), rxBuf: make([]byte, 0, 12*1024)}
	st.node = s.med.newNode(st)
	s.med.nodes = append(s.med.nodes, st.node)
	st.ip = newStack(s, cfg.Addr, cfg.IP, st.sendEth)
	st.initFlood()
	s.stations = append(s.stations, st)
	s.byMAC[cfg.Addr] = st
	st.gen++
	s.schedule(cfg.Start, evTimer, st.gen, nil, st)
	return st
}

// Addr returns the station's MAC address.
func (st *Station) Addr() ieee80211.MAC { return st.cfg.Addr }

// IP returns the station's IPv4 address.
func (st *Station) IP() netip.Addr { return st.cfg.IP }

// Associated reports whether the station is associated.
// With WPA2 that is once the 4-way handshake opened the port, as
// wpa_supplicant reports CONNECTED.
func (st *Station) Associated() bool { return st.state == staAssociated && st.portOpen() }

// AID returns the association ID the AP gave, 0 when not associated.
func (st *Station) AID() uint16 { return st.aid }

// QoS reports whether the station sends and expects QoS data (WMM).
func (st *Station) QoS() bool { return st.qos }

// Stats returns the station's counters.
func (st *Station) Stats() StationStats { return st.stats }

// Stack returns the station's IP-stack counters.
func (st *Station) Stack() StackStats { return st.ip.stats }

func (st *Station) stack() *stack { return st.ip }

// listening reports whether the receiver is on for a unicast frame: a
// dozing station hears only the answer to its PS-Poll.
func (st *Station) listening() bool { return !st.dozing || st.polled }

// hears reports whether the receiver is on for a group frame: a dozing
// station wakes for beacons, and for group data after a DTIM announced it.
func (st *Station) hears(fr ieee80211.Frame) bool {
	if !st.dozing {
		return true
	}
	if fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) {
		return true
	}
	return st.groupAwake && fr.Type() == ieee80211.TypeData
}

// Connect makes a station that left (or was deauthenticated) scan and join
// again.
func (st *Station) Connect() {
	st.wantUp = true
	if st.state == staIdle {
		st.scan()
	}
}

// stayAway keeps a station that has not started from ever looking for
// its BSS, as one that left for good.
func (st *Station) stayAway() {
	st.wantUp = false
	st.gen++ // its start
}

// Deauthenticate sends a deauthentication to the AP and leaves the BSS.
func (st *Station) Deauthenticate(reason uint16) {
	st.wantUp = false
	if st.state >= staAuthenticating {
		st.sendMgmt(ieee80211.SubtypeDeauth, st.bssid, ieee80211.AppendDeauth(st.buf[:0], reason))
	}
	st.leave()
}

func (st *Station) leave() {
	if st.state == staAssociated {
		st.stats.ConnectedFor += st.sim.now - st.stats.AssociatedAt
	}
	st.state, st.aid, st.qos = staIdle, 0, false
	st.crypto = nil
	st.node.useEDCA(ieee80211.DefaultEDCA()) // out of the BSS: the default parameters again
	st.gen++                                 // cancel timers
}

// Doze tells the AP, with a Null frame carrying the PM bit, that the
// station turns its receiver off (on=true) or on again. While dozing the
// station still wakes for beacons; the AP buffers its frames.
func (st *Station) Doze(on bool) {
	if st.state != staAssociated {
		return
	}
	if !on {
		st.dozing, st.polled, st.groupAwake = false, false, false
	}
	st.sendNull(on)
	st.dozing = on
}

// PSPoll asks the AP for one buffered frame; the receiver stays on until
// the answer arrives.
func (st *Station) PSPoll() {
	if st.state != staAssociated {
		return
	}
	p := st.sim.newPacket()
	p.b = ieee80211.AppendPSPoll(p.b[:0], st.aid, st.bssid, st.cfg.Addr)
	st.polled = true
	st.stats.PSPolls++
	st.sim.transmit(st, p, ieee80211.ACVO, st.sim.med.lowest)
}

// fire runs the station's one timer: the start, and the timeouts of
// scanning, authentication and association (tried mlmeTries times before
// the station starts over).
func (st *Station) fire(now time.Duration, gen int) {
	if gen < 0 { // an SA Query's timeout (station_pmf.go)
		st.saQueryExpired(-gen)
		return
	}
	if gen != st.gen || !st.wantUp {
		return
	}
	if st.flooder() {
		st.flood()
		return
	}
	switch {
	case st.state == staAuthenticating && st.tries < mlmeTries:
		st.sendAuth()
	case st.state == staAssociating && st.tries < mlmeTries:
		st.sendAssocReq()
	case st.state == staScanning:
		st.probe()
	default:
		st.scan()
	}
}

func (st *Station) armTimer(d time.Duration) {
	st.gen++
	st.sim.schedule(st.sim.now+d, evTimer, st.gen, nil, st)
}

// scan starts looking for the BSS.
func (st *Station) scan() {
	st.state = staScanning
	st.probe()
}

func (st *Station) probe() {
	if !st.cfg.Passive {
		st.stats.Probes++
		p := st.sim.newPacket()
		p.b = ieee80211.AppendProbeReq(p.b[:0], st.cfg.Addr, st.cfg.SSID, st.rates(), st.nextMgmtSeq())
		st.sim.transmit(st, p, ieee80211.ACVO, st.sim.med.lowest)
	}
	st.armTimer(100 * time.Millisecond)
}
