package ctl

// RateTable is one station's rate selector: its totals and one row per
// rate, fastest first (minstrel_ht's rc_stats). In the text form the rows
// are rate sections after the rates section.
type RateTable struct {
	Addr     MAC    `json:"mac"`
	Selector bool   `json:"selector"`  // false: no rate selection, a fixed rate
	Best     string `json:"best_rate"` // the rate data frames use now, like "HT20 MCS7"
	BestKbps int    `json:"best_rate_kbps"`
	Frames   uint64 `json:"frames"`          // frames the selector picked a rate for
	Samples  uint64 `json:"samples"`         // of which sampled another rate
	Unknown  uint64 `json:"unknown_reports"` // TX status for a rate outside the table
	// Rows is nil for a station without a selector.
	Rows []RateStats `json:"rates"`
}

// RateStats is one rate of a station's table, the columns of rc_stats.
type RateStats struct {
	Mode       string  `json:"mode"`  // CCK, OFDM, HT20, VHT80...
	Guard      string  `json:"guard"` // SGI, LGI, or - for legacy rates
	Streams    int     `json:"streams"`
	Name       string  `json:"rate"` // within the mode: 5.5M, MCS7, MCS9/2
	Kbps       int     `json:"bitrate_kbps"`
	Best       bool    `json:"best"`   // carries data now (A)
	Second     bool    `json:"second"` // first fallback (B)
	Robust     bool    `json:"robust"` // most robust (P)
	Airtime    uint32  `json:"airtime_us"`
	MaxTP      float64 `json:"max_tp_mbps"` // if every attempt succeeded
	TP         float64 `json:"avg_tp_mbps"` // expected throughput
	Prob       float64 `json:"prob"`        // success probability per attempt, 0-1
	Measured   bool    `json:"measured"`    // Prob holds a measurement
	Retries    uint8   `json:"retries"`
	LastSucc   uint32  `json:"last_success"` // the last complete interval
	LastAtt    uint32  `json:"last_attempts"`
	Successes  uint64  `json:"successes"`
	Attempts   uint64  `json:"attempts"`
	Samples    uint64  `json:"samples"`
	FrameBytes int     `json:"frame_bytes"` // reference frame of Airtime and the throughputs
}
