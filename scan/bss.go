package scan

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// BSS is one entry of the table: what the last Beacon or Probe Response of
// a BSSID said, and when and how it was heard. It holds no pointers, so a
// copy is a snapshot.
type BSS struct {
	BSSID     ieee80211.MAC
	SSID      [32]byte
	SSIDLen   uint8
	Hidden    bool // beacons carry an empty or zeroed SSID
	Freq      int  // the BSS's channel: DS Parameter Set or HT primary, else where heard
	HeardFreq int  // where the last frame was heard (2.4 GHz frames leak to neighbours)
	Signal    int8 // dBm, valid if HasSignal
	HasSignal bool

	Capability     uint16 // ieee80211.Cap* bits
	BeaconInterval uint16 // TU
	TSF            uint64 // timestamp field of the last frame
	FirstSeen      time.Duration
	LastSeen       time.Duration
	Beacons        uint32
	ProbeResps     uint32
	FromProbe      bool // the last frame was a Probe Response

	Rates  [16]byte // Supported and Extended Supported Rates, as sent
	NRates uint8

	DSChannel   uint8 // DS Parameter Set, 0 if absent
	HT          bool  // HT Capabilities present
	HTCapInfo   uint16
	HTOper      bool // HT Operation present
	HTPrimary   uint8
	HTSecondary uint8 // ieee80211.HTOperSecondary*
	HTAnyWidth  bool
	VHT         bool // VHT Capabilities present
	VHTCapInfo  uint32
	VHTOper     bool // VHT Operation present
	VHTWidth    uint8
	VHTSeg0     uint8
	VHTSeg1     uint8
	VHTBasicMCS uint16
	RSN         bool
}

// SSIDString returns the SSID as a string (it allocates: for output only).
func (b *BSS) SSIDString() string { return string(b.SSID[:b.SSIDLen]) }

// parseBody fills the frame-derived fields of b from a Beacon or Probe
// Response body. Elements before a truncated one are kept; the error says
// the body was malformed.
func parseBody(b *BSS, body []byte) error {
	bc, err := ieee80211.ParseBeacon(body)
	if err != nil {
		return err
	}
	b.TSF, b.BeaconInterval, b.Capability = bc.Timestamp(), bc.Interval(), bc.Capability()
	it := bc.Elements().Iter()
	for it.Next() {
		parseElement(b, it.ID(), it.Body())
	}
	return it.Err()
}

func parseElement(b *BSS, id uint8, e []byte) {
	switch id {
	case ieee80211.ElemSSID:
		b.SSIDLen = uint8(copy(b.SSID[:], e))
	case ieee80211.ElemSupportedRates, ieee80211.ElemExtSupportedRates:
		b.NRates += uint8(copy(b.Rates[b.NRates:], e))
	case ieee80211.ElemDSParams:
		if len(e) >= 1 {
			b.DSChannel = e[0]
		}
	case ieee80211.ElemHTCap:
		if c, err := ieee80211.ParseHTCap(e); err == nil {
			b.HT, b.HTCapInfo = true, c.Info()
		}
	case ieee80211.ElemHTOper:
		if o, err := ieee80211.ParseHTOper(e); err == nil {
			b.HTOper, b.HTPrimary = true, o.PrimaryChannel()
			b.HTSecondary, b.HTAnyWidth = o.SecondaryOffset(), o.AnyWidth()
		}
	case ieee80211.ElemVHTCap:
		if c, err := ieee80211.ParseVHTCap(e); err == nil {
			b.VHT, b.VHTCapInfo = true, c.Info()
		}
	case ieee80211.ElemVHTOper:
		if o, err := ieee80211.ParseVHTOper(e); err == nil {
			b.VHTOper, b.VHTWidth, b.VHTSeg0, b.VHTSeg1 = true, o.ChannelWidth(), o.CCFS0(), o.CCFS1()
			b.VHTBasicMCS = o.BasicMCSMap()
		}
	case ieee80211.ElemRSN:
		b.RSN = true
	}
}

// channelFreq returns the frequency of the BSS's own channel: the HT
// primary or DS channel in the band it was heard in, as cfg80211 does, so
// a 2.4 GHz beacon heard on a neighbouring channel lands on its own.
func (b *BSS) channelFreq(heard int) int {
	band, ok := ieee80211.FreqBand(heard)
	if !ok {
		return heard
	}
	ch := int(b.DSChannel)
	if b.HTOper {
		ch = int(b.HTPrimary)
	}
	if f := ieee80211.ChannelToFreq(ch, band); f != 0 {
		return f
	}
	return heard
}

func zeroed(s []byte) bool {
	for _, c := range s {
		if c != 0 {
			return false
		}
	}
	return true
}
