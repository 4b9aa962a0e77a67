package ap

// signalAverage is mac80211's moving average of a station's signal
// (DECLARE_EWMA(signal, 10, 8) over -dBm, what iw shows as "signal avg"):
// each frame weighs 1/8, in fixed point with 10 fraction bits. Zero means
// nothing heard yet.
type signalAverage uint32

func (e *signalAverage) add(dbm int8) {
	v := signalAverage(-min(int32(dbm), 0)) << 10
	if *e == 0 {
		*e = v
		return
	}
	*e = (*e<<3 - *e + v) >> 3
}

// dBm returns the average; 0 before the first frame.
func (e signalAverage) dBm() int8 { return int8(-int32(e >> 10)) }
