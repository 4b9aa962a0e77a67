package kernelmodel

import (
	"github.com/airq/airq/aql"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// Frame sizes of one TCP segment (timestamps on: 1448 bytes of payload in a
// 1500-byte IP packet) on an open network.
const (
	mss       = 1448
	skbLen    = 1514 // what the kernel estimate sees: ath11k hands 802.3 frames to the firmware
	mpduLen   = 26 + 8 + 1500 + 4
	subframe  = 4 + (mpduLen+3)&^3 // A-MPDU delimiter + MPDU padded to 4 octets
	ackMPDU   = 26 + 8 + 52 + 4    // the station's TCP ACK as an 802.11 frame
	truesize  = 2304               // skb->truesize of one segment
	wireBytes = 1514 + 4 + 8 + 12  // Ethernet frame + FCS, preamble, IFG on the ingress

	maxSubframes = 64
	maxPPDU      = 4000 // µs, the driver's aggregate duration cap
)

// 5 GHz timing with mac80211's default BE EDCA (AIFSN 3, CWmin 15).
const (
	sifs    = 16
	slot    = 9
	baBytes = 32 // compressed BlockAck
	ackByte = 14
)

// ackMbps is the control-response rate for VHT MCS 0-9 (highest mandatory
// rate not above the MCS's non-HT reference rate), as aql uses it.
var ackMbps = [10]int{6, 12, 12, 24, 24, 24, 24, 24, 24, 24}

func ofdmDur(bytes, mbps int) uint32 {
	bits := 16 + 8*bytes + 6
	per := 4 * mbps
	return uint32(20 + 4*((bits+per-1)/per))
}

// phy holds the per-link airtimes. It mirrors aql's exact estimator: the
// estimator's single-MPDU VHT exchange already counts one delimiter and
// 4-octet padding, so an A-MPDU of L octets is the "MPDU" of L-4 octets;
// the mean channel access it adds is taken out (the model draws its own
// backoff) and its ACK replaced by a BlockAck.
type phy struct {
	rate       radio.Rate
	aifs       uint32
	cwMin      uint32
	meanAcc    uint32
	baMinusAck uint32
	ppdu       [maxSubframes + 1]uint32 // preamble + data symbols of n subframes
	tail       uint32                   // SIFS + BlockAck
	uplinkAck  uint32                   // station's TCP ACK exchange without access
}

func newPHY(r radio.Rate) *phy {
	ch := aql.DefaultChannel()
	e := aql.NewEstimator(ch)
	be := ch.EDCA[ieee80211.ACBE]
	p := &phy{rate: r}
	p.aifs = uint32(sifs + int(be.AIFSN)*slot)
	p.cwMin = uint32(be.CWMin)
	p.meanAcc = p.aifs + (uint32(be.CWMin)*slot+1)/2
	am := ackMbps[r.MCS%10]
	p.baMinusAck = ofdmDur(baBytes, am) - ofdmDur(ackByte, am)
	ack := e.AckTime(r)
	p.tail = ack + p.baMinusAck
	for n := 1; n <= maxSubframes; n++ {
		x := e.Airtime(r, ieee80211.ACBE, n*subframe-4)
		p.ppdu[n] = x - p.meanAcc - ack
	}
	p.uplinkAck = e.Airtime(r, ieee80211.ACBE, ackMPDU) - p.meanAcc
	return p
}

// exchange is the medium time of an n-subframe A-MPDU after channel access.
func (p *phy) exchange(n int) uint32 { return p.ppdu[n] + p.tail }
