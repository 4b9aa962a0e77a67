package nl80211

import "fmt"

// PHY describes one wiphy (a radio).
type PHY struct {
	Index    int
	Name     string
	PermAddr [6]byte
	// Addresses are the extra MAC addresses the driver offers for
	// interfaces (NL80211_ATTR_MAC_ADDRS); empty for most drivers.
	Addresses [][6]byte
	// AddrMask is NL80211_ATTR_MAC_ADDRS' companion NL80211_ATTR_MAC_MASK:
	// the bits an interface address may vary in. When it is non-zero,
	// mac80211 refuses to bring up an interface whose address differs from
	// another running (non-monitor or active monitor) interface of the
	// wiphy outside the mask.
	AddrMask [6]byte
	// ActiveMonitor reports NL80211_FEATURE_ACTIVE_MONITOR: a monitor
	// interface created with MonitorActive ACKs frames sent to its address.
	ActiveMonitor bool
	// SelfManagedReg: the driver manages its own regulatory domain and
	// ignores the country set with SetCountry.
	SelfManagedReg bool
	// Monitor reports that the wiphy supports monitor interfaces.
	Monitor bool
	// IfTypes lists the supported interface types.
	IfTypes []IfType
	// FeatureFlags is NL80211_ATTR_FEATURE_FLAGS (NL80211_FEATURE_*).
	FeatureFlags uint32
	// ExtFeatures is NL80211_ATTR_EXT_FEATURES: bit n is byte n/8, bit n%8.
	ExtFeatures []byte
	Bands       []Band
}

// HasExtFeature reports whether ext feature n (NL80211_EXT_FEATURE_*) is set.
func (p PHY) HasExtFeature(n int) bool {
	if n < 0 || n/8 >= len(p.ExtFeatures) {
		return false
	}
	return p.ExtFeatures[n/8]&(1<<(n%8)) != 0
}

// Band is one frequency band of a wiphy.
type Band struct {
	// Index is the nl80211 band: 0 2.4 GHz, 1 5 GHz, 2 60 GHz, 3 6 GHz, 4 S1G.
	Index    int
	HTCapa   uint16 // HT Capabilities Info; 0: no HT on this band
	VHTCapa  uint32 // VHT Capabilities Info; 0: no VHT on this band
	Rates    []int  // bitrates in units of 100 kb/s
	Channels []ChannelInfo
}

// ChannelInfo is one frequency of a band with its regulatory flags.
type ChannelInfo struct {
	Freq int // MHz
	// FreqOffsetKHz is added to Freq: S1G channels (band 4) sit on half
	// MHz (902.5 MHz is Freq 902, offset 500). 0 on every other band.
	FreqOffsetKHz int
	Disabled      bool
	// NoIR: no initiating radiation (no beaconing, no injection that sticks).
	NoIR        bool
	Radar       bool
	MaxPowerMBm int // maximum transmit power in mBm (100 * dBm)
	// Width restrictions of the channel as a control channel.
	NoHT40Plus  bool // no secondary channel above
	NoHT40Minus bool // no secondary channel below
	No80MHz     bool
	No160MHz    bool
}

// IfType is an nl80211 interface type (NL80211_IFTYPE_*).
type IfType uint32

// Interface types.
const (
	IfTypeUnspecified IfType = 0
	IfTypeAdhoc       IfType = 1
	IfTypeStation     IfType = 2
	IfTypeAP          IfType = 3
	IfTypeAPVLAN      IfType = 4
	IfTypeWDS         IfType = 5
	IfTypeMonitor     IfType = 6
	IfTypeMeshPoint   IfType = 7
	IfTypeP2PClient   IfType = 8
	IfTypeP2PGO       IfType = 9
	IfTypeP2PDevice   IfType = 10
	IfTypeOCB         IfType = 11
	IfTypeNAN         IfType = 12
)

var ifTypeNames = [...]string{"unspecified", "IBSS", "managed", "AP", "AP/VLAN",
	"WDS", "monitor", "mesh point", "P2P-client", "P2P-GO", "P2P-device", "outside context of a BSS", "NAN"}

func (t IfType) String() string {
	if int(t) < len(ifTypeNames) {
		return ifTypeNames[t]
	}
	return fmt.Sprintf("iftype(%d)", uint32(t))
}

// Interface is a wireless network interface (a netdev on a wiphy).
type Interface struct {
	Index int
	Name  string
	PHY   int
	Type  IfType
	Addr  [6]byte
	Freq  int // MHz; 0 when the interface reports no channel
	// Up reports the netdev's administrative state (IFF_UP), read from the
	// kernel's link table by Interfaces and InterfacesOf; NewMonitor
	// reports false (a new interface starts down).
	Up bool
}

// MonitorFlags selects what a monitor interface receives and whether it is
// active (NL80211_MNTR_FLAG_*, one bit per flag number).
type MonitorFlags uint32

// Monitor flags. Explicit flags replace the kernel's defaults; an access point
// wants MonitorActive|MonitorControl|MonitorOtherBSS.
const (
	MonitorFCSFail    MonitorFlags = 1 << 1 // pass frames with a bad FCS
	MonitorPLCPFail   MonitorFlags = 1 << 2 // pass frames with a bad PLCP CRC
	MonitorControl    MonitorFlags = 1 << 3 // pass control frames (PS-Poll, BAR, ...)
	MonitorOtherBSS   MonitorFlags = 1 << 4 // disable BSSID filtering
	MonitorCookFrames MonitorFlags = 1 << 5 // refused by current kernels
	MonitorActive     MonitorFlags = 1 << 6 // ACK unicast frames to the interface address
	MonitorSkipTX     MonitorFlags = 1 << 7 // no TX-status copies (never on the AP's interface)
)

const maxMonitorFlag = 7

// Width is a channel width (NL80211_CHAN_WIDTH_*).
type Width uint32

// Channel widths. The values are the kernel's.
const (
	Width20NoHT Width = 0
	Width20     Width = 1
	Width40     Width = 2
	Width80     Width = 3
	Width80P80  Width = 4
	Width160    Width = 5
)

var widthNames = [...]string{"20 MHz (no HT)", "20 MHz", "40 MHz", "80 MHz", "80+80 MHz", "160 MHz"}

func (w Width) String() string {
	if int(w) < len(widthNames) {
		return widthNames[w]
	}
	return fmt.Sprintf("width(%d)", uint32(w))
}

// Channel is a channel definition: the control frequency, the width and the
// centre frequencies of the segments, all in MHz. Center1 may be left 0 for
// 20 MHz widths; it is required for 40 MHz and wider; Center2 only for 80+80.
type Channel struct {
	Freq    int
	Width   Width
	Center1 int
	Center2 int
}

// SurveyInfo is one channel's survey entry. Times are cumulative milliseconds.
type SurveyInfo struct {
	Freq int
	// FreqOffsetKHz is added to Freq: S1G channels sit on half MHz (see
	// ChannelInfo). 0 on every other band.
	FreqOffsetKHz int
	InUse         bool
	Noise         int // dBm; valid when HasNoise
	HasNoise      bool
	Time          uint64 // radio on the channel
	TimeBusy      uint64
	TimeExt       uint64 // extension channel busy
	TimeRX        uint64
	TimeTX        uint64
	TimeScan      uint64
	TimeBSS       uint64 // receiving frames of our own BSS
}
