package ieee80211

// AC is a WMM access category, numbered as mac80211 numbers its queues.
type AC uint8

const (
	ACVO AC = iota // voice
	ACVI           // video
	ACBE           // best effort
	ACBK           // background
)

// NumACs is the number of access categories.
const NumACs = 4

var acNames = [NumACs]string{"VO", "VI", "BE", "BK"}

func (ac AC) String() string {
	if ac < NumACs {
		return acNames[ac]
	}
	return "AC?"
}

// ParseAC accepts VO, VI, BE or BK (any case).
func ParseAC(s string) (AC, bool) {
	for i, n := range acNames {
		if len(s) == 2 && (s == n || (s[0]|0x20) == (n[0]|0x20) && (s[1]|0x20) == (n[1]|0x20)) {
			return AC(i), true
		}
	}
	return 0, false
}

// NumTIDs is the number of traffic identifiers of QoS data.
const NumTIDs = 8

// tidToAC is the 802.1D user priority to access category map (IEEE 802.11 table 10-1).
var tidToAC = [16]AC{ACBE, ACBK, ACBK, ACBE, ACVI, ACVI, ACVO, ACVO, ACBE, ACBK, ACBK, ACBE, ACVI, ACVI, ACVO, ACVO}

// TIDToAC returns the access category of a TID (user priority).
func TIDToAC(tid uint8) AC { return tidToAC[tid&15] }

// DSCPToTID maps a DSCP value to a user priority the way Linux's
// cfg80211_classify8021d does by default: the three precedence bits.
func DSCPToTID(dscp uint8) uint8 { return (dscp >> 3) & 7 }
