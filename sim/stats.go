package sim

import (
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/ieee80211"
)

// Direction of a data frame on the medium.
const (
	Down = 0 // AP to station
	Up   = 1 // station to AP
)

// Stats are the simulator's own counters: what the medium and the wired
// side saw, to be compared with the core's.
type Stats struct {
	Events      uint64
	Unaccounted uint64 // core calls after which ap.Accounted was false

	TxAttempts, Collisions uint64
	Busy                   time.Duration // medium time on air
	// APMgmtAirtime is the AP's management airtime other than beacons
	// (every attempt): what it spends answering others.
	APMgmtAirtime time.Duration
	FloodFrames   uint64        // frames flooders sent
	FloodAirtime  time.Duration // flooders' airtime (every attempt)

	// Data MSDUs (not Null frames) by direction and AC: delivered (ACKed or
	// group), and unicast ones that exhausted their retries.
	DataDone   [2][ieee80211.NumACs]uint64
	DataBytes  [2][ieee80211.NumACs]uint64 // 802.11 frame bytes of DataDone
	DataFailed [2]uint64
	GroupData  uint64 // of DataDone[Down], group addressed
	MgmtFailed uint64 // unicast management frames of the AP nobody ACKed

	Echoes, EchoesLost uint64
	CoreBadFrames      uint64 // core radio output the medium could not parse

	WiredToCore, WiredFromCore uint64
	WiredUnclaimed             uint64 // core wired output no host owns
	// WiredOut is the core's wired output by the BSS whose side it went to.
	WiredOut [ap.MaxBSSes]uint64

	// Beacons are the AP's beacons put on the air of the home channel;
	// BeaconLateMax the longest a beacon went on the air after its TBTT.
	Beacons       uint64
	BeaconLateMax time.Duration
	// The AP's radio off the home channel: retunes, trips (home, away,
	// home again), the time away (retunes included) and the longest trip.
	Retunes, Trips    uint64
	Away, LongestTrip time.Duration
	// RetuneFlushed counts frames of the core that were still queued at the
	// AP's radio when it retuned: dropped without echo, as mac80211 drops
	// them. TxWhileRetuning counts frames the core emitted while a retune
	// was pending (dropped too); CoreOffChannel frames other than probe
	// requests it emitted while off the home channel (sent there).
	RetuneFlushed, TxWhileRetuning, CoreOffChannel uint64
	// UplinkLostAway counts station frames that exhausted their retries
	// while the AP's radio was off their channel.
	UplinkLostAway uint64
	// One-trip scans (Sim.OneTripScan): frames the core emitted while the
	// queues were stopped and sent on return (Held), beacons not sent
	// (BeaconsStopped).
	Held, BeaconsStopped uint64
	// EventsLost counts the core's station events dropped because nobody
	// drained them (Sim.DrainEvents keeps the last 256).
	EventsLost uint64
}

// Stats returns a snapshot of the simulator's counters.
func (s *Sim) Stats() Stats { return s.stats }

// count books a frame that is done on the medium.
func (s *Sim) count(p *packet) {
	fr := p.frame()
	dir := Down
	if p.from != 0 {
		dir = Up
	}
	if fr.Type() != ieee80211.TypeData || fr.IsNullData() {
		if dir == Down && !p.acked && !p.group {
			s.stats.MgmtFailed++
		}
		return
	}
	if !p.acked {
		s.stats.DataFailed[dir]++
		return
	}
	if p.group && dir == Down {
		s.stats.GroupData++
	}
	s.stats.DataDone[dir][p.ac]++
	s.stats.DataBytes[dir][p.ac] += uint64(len(fr))
}

// APQueued returns the frames the core has handed to the simulated radio
// that are not done on the medium yet.
func (s *Sim) APQueued() int {
	n := 0
	for i := range s.med.nodes[0].ac {
		n += s.med.nodes[0].ac[i].q.size
	}
	return n
}
