package monitor

import (
	"errors"
	"log/slog"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/inject"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/nl80211"
	"github.com/airq/airq/scan"
)

// Options say which radio to bring up and how.
type Options struct {
	Phy    string // the wiphy to drive, e.g. phy0
	Ifname string // the monitor interface to create
	// Core is the core's configuration. A zero BSSID takes the phy's
	// permanent address. Channel and Freq zero select the channel at start
	// (Core.ACS holds the runs and the scoring; the candidates come from
	// the phy through ACS). Core.Scan, when set, gets the phy's other
	// channels and the measured retune time.
	Core ap.Config
	ACS  ACSFilter
	// HTCapAsked are the HT Capabilities bits of the ht_capab flags airq
	// does not act on ([TX-STBC], [DSSS_CCK-40], ...): the radio must have
	// them, as hostapd requires.
	HTCapAsked uint16
	// VHTCapAsked are the same of vht_capab ([SU-BEAMFORMER], ...).
	VHTCapAsked uint32
	// Country is the ISO 3166 code set as the kernel's regulatory domain
	// before the channel is checked; "" keeps the current domain. The
	// radio needs it even when it is not advertised: mac80211 drops
	// injected frames where the domain forbids beaconing.
	Country string
	// CountryElement advertises the applied domain in beacons and probe
	// responses (hostapd's ieee80211d=1).
	CountryElement bool
	// Takeover brings down the interfaces that block the phy and deletes
	// stale airq monitors, instead of refusing to start.
	Takeover bool
	// NoQualify skips the hardware checks at Open.
	NoQualify bool
	// FullEchoes keeps TX-status echoes whole (a capture wants them).
	FullEchoes bool
	// AMSDUOptional says Core.AMSDU is the default, not asked for: when
	// the monitor's MTU cannot be raised to hold it, A-MSDUs are turned
	// off with a warning instead of failing the start.
	AMSDUOptional bool
	// Holder is the kind of interface that holds the BSSID of each BSS
	// after the first (Core.BSSes; a zero BSSID is derived from the first
	// BSS's as hostapd derives it, and Config returns it filled in) for
	// the hardware's ACKs (HolderKind).
	Holder HolderKind
	Log    *slog.Logger // the bring-up's steps; nil: none
	// OnACSDecision, if set, is told the channel selection's outcome when
	// the radio first goes home after the start-up scan.
	OnACSDecision func(d scan.Decision, took time.Duration)
}

// ErrNotSupported is returned by Open and Qualify where there is no
// nl80211 or AF_PACKET.
var ErrNotSupported = errors.New("monitor: needs Linux (nl80211 and AF_PACKET)")

// Radio is an active monitor interface on the operating channel with its
// injection socket open. It belongs to one goroutine: the shell's loop
// calls its retuner, and Close comes after the loop ends.
type Radio struct {
	nl  *nl80211.Conn // owns the monitor interface: closing it deletes it
	phy nl80211.PHY
	mon nl80211.Interface
	dev *inject.Device
	cfg ap.Config
	log *slog.Logger
	o   Options
	// plan and holders: every BSS's BSSID and, from the second BSS on, the
	// interface that holds it
	plan    holderPlan
	holders []nl80211.Interface
}

// BSSIDs returns every BSS's BSSID in configuration order, the derived
// ones filled in; the first is Config().BSSID.
func (r *Radio) BSSIDs() []ieee80211.MAC { return r.plan.bssids }

// Holders returns the interfaces that hold the BSSIDs of the second BSS
// on, in order (the first BSS's is the monitor, Options.Ifname).
func (r *Radio) Holders() []nl80211.Interface { return r.holders }

// Config is the core's configuration fitted to the radio: BSSID, channel,
// PHY settings, Country element, scan channels.
func (r *Radio) Config() ap.Config { return r.cfg }

// Device is the injection socket on the monitor interface. The shell
// closes it when it stops; Close closes it too.
func (r *Radio) Device() *inject.Device { return r.dev }

// Close closes the device, deletes the monitor interface and closes the
// nl80211 connection. It may be called once.
func (r *Radio) Close() error {
	if r.dev != nil {
		r.dev.Close()
	}
	var err error
	for _, h := range r.holders {
		if e := r.nl.DelInterface(h.Index); e != nil {
			r.log.Warn("deleting ACK holder", "ifname", h.Name, "err", e)
			err = errors.Join(err, e)
		}
	}
	if r.mon.Index != 0 {
		if e := r.nl.DelInterface(r.mon.Index); e != nil {
			r.log.Warn("deleting monitor interface", "ifname", r.o.Ifname, "err", e)
			err = errors.Join(err, e)
		}
	}
	return errors.Join(err, r.nl.Close())
}

// amsduMTU is the monitor MTU airq's frames need: the packet socket takes
// at most MTU+14 bytes, radiotap included, so the default 1500 cannot carry
// a full-size Ethernet frame once the radiotap, 802.11 and LLC headers are
// added. It holds the largest MSDU (2304 octets) or the largest A-MSDU.
func amsduMTU(amsdu int) int {
	return max(amsdu, maxMSDU) + 256
}

// maxMSDU is the largest MSDU 802.11 carries.
const maxMSDU = 2304
