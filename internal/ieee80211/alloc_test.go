package ieee80211

import "testing"

func TestZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race; make norace runs this test without it")
	}
	qos := unhex(t, frameQoSData)
	ies := beaconIEs()
	buf := make([]byte, 0, 2048)
	var bm TIMBitmap
	bm.Set(5)
	edca := DefaultEDCA()
	eth := AppendEtherHdr(nil, staMAC, apMAC, 0x0800)
	eth = append(eth, make([]byte, 100)...)
	amsdu := AppendAMSDUSubframe(nil, 0, staMAC, apMAC, 0x0800, make([]byte, 30))
	amsdu = AppendAMSDUSubframe(amsdu, 0, staMAC, apMAC, 0x0800, make([]byte, 30))
	cases := map[string]func(){
		"ParseFrame": func() {
			f, _ := ParseFrame(qos)
			_, _, _, _ = f.Addr1(), f.Addr2(), f.Addr3(), f.Addr4()
			_, _, _ = f.TID(), f.Seq(), f.Body()
		},
		"Elements": func() {
			it := Elements(ies).Iter()
			for it.Next() {
				_ = it.Body()
			}
			Elements(ies).Find(ElemTIM)
			Elements(ies).WMMParams()
			Elements(ies).StationWMM()
			_ = Elements(ies).Validate()
		},
		"Beacon": func() {
			b := AppendMgmtHeader(buf[:0], SubtypeBeacon, Broadcast, apMAC, apMAC, 1)
			b = AppendBeaconFixed(b, 1, 100, CapESS)
			b = AppendSSID(b, "airq")
			b = AppendRates(b, Rates2GHz)
			b = AppendDSParams(b, 6)
			b = AppendTIM(b, 0, 1, true, &bm)
			b = AppendCountry(b, "US", ' ', nil)
			b = AppendERP(b, 0)
			b = AppendWMMParam(b, edca, 0)
			buf = AppendElement(b, ElemHTCap, 1, 2, 3)
		},
		"Data": func() {
			buf, _ = EthernetToData(buf[:0], eth, apMAC, DataHeader{Flags: FCFromDS, QoS: true, TID: 3})
			f, _ := ParseFrame(buf)
			var out [256]byte
			DataToEthernet(out[:0], f)
		},
		"AMSDU": func() {
			it := AMSDUSubframes(amsdu)
			for it.Next() {
				Decap(it.Payload())
			}
		},
		"Station": func() {
			b := AppendPSPoll(buf[:0], 1, apMAC, staMAC)
			b = AppendNullData(b, apMAC, staMAC, 1, true)
			b = AppendProbeReq(b, staMAC, "airq", Rates2GHz, 1)
			b = AppendAuth(b, AuthOpen, 1, 0)
			buf = AppendAssocReq(b, CapESS, 10)
		},
		"MAC": func() {
			var tb [17]byte
			staMAC.AppendText(tb[:0])
			ParseMAC("02:00:00:00:01:00")
		},
	}
	for name, f := range cases {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %v times", name, n)
		}
	}
}

func BenchmarkParseFrame(b *testing.B) {
	qos := unhex(b, frameQoSData)
	b.ReportAllocs()
	for b.Loop() {
		f, err := ParseFrame(qos)
		if err != nil || f.TID() != 0 || f.Addr2() != staMAC {
			b.Fatal("parse")
		}
	}
}

func BenchmarkElements(b *testing.B) {
	ies := beaconIEs()
	b.ReportAllocs()
	for b.Loop() {
		it := Elements(ies).Iter()
		for it.Next() {
		}
	}
}

func BenchmarkAppendBeacon(b *testing.B) {
	buf := make([]byte, 0, 512)
	var bm TIMBitmap
	edca := DefaultEDCA()
	b.ReportAllocs()
	for b.Loop() {
		p := AppendMgmtHeader(buf[:0], SubtypeBeacon, Broadcast, apMAC, apMAC, 1)
		p = AppendBeaconFixed(p, 1, 100, CapESS)
		p = AppendSSID(p, "airq")
		p = AppendRates(p, Rates2GHz)
		p = AppendDSParams(p, 6)
		p = AppendTIM(p, 0, 1, false, &bm)
		buf = AppendWMMParam(p, edca, 0)
	}
}
