package nl80211

import (
	"fmt"

	"github.com/mdlayher/genetlink"
	"github.com/mdlayher/netlink"
)

// Survey dumps the channel survey of the interface's wiphy: one entry per
// channel the driver reports. Counters are cumulative; compute utilisation
// from the difference between two surveys.
func (c *Conn) Survey(ifindex int) ([]SurveyInfo, error) {
	op := fmt.Sprintf("survey interface %d", ifindex)
	msgs, err := c.request(op, cmdGetSurvey, netlink.Dump, func(ae *netlink.AttributeEncoder) {
		ae.Uint32(attrIfindex, uint32(ifindex))
	})
	if err != nil {
		return nil, err
	}
	out, err := decodeSurveys(msgs)
	return out, wrap(op, err)
}

func decodeSurveys(msgs []genetlink.Message) ([]SurveyInfo, error) {
	out := make([]SurveyInfo, 0, len(msgs))
	for _, m := range msgs {
		ad, err := netlink.NewAttributeDecoder(m.Data)
		if err != nil {
			return nil, err
		}
		for ad.Next() {
			if ad.Type() == attrSurveyInfo {
				var s SurveyInfo
				ad.Nested(s.decode)
				out = append(out, s)
			}
		}
		if err := ad.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *SurveyInfo) decode(ad *netlink.AttributeDecoder) error {
	for ad.Next() {
		switch ad.Type() {
		case surveyInfoFrequency:
			s.Freq = int(ad.Uint32())
		case surveyInfoFrequencyOffset:
			s.FreqOffsetKHz = int(ad.Uint32())
		case surveyInfoInUse:
			s.InUse = true
		case surveyInfoNoise:
			s.Noise, s.HasNoise = int(int8(ad.Uint8())), true
		case surveyInfoTime:
			s.Time = ad.Uint64()
		case surveyInfoTimeBusy:
			s.TimeBusy = ad.Uint64()
		case surveyInfoTimeExtBusy:
			s.TimeExt = ad.Uint64()
		case surveyInfoTimeRx:
			s.TimeRX = ad.Uint64()
		case surveyInfoTimeTx:
			s.TimeTX = ad.Uint64()
		case surveyInfoTimeScan:
			s.TimeScan = ad.Uint64()
		case surveyInfoTimeBssRx:
			s.TimeBSS = ad.Uint64()
		}
	}
	return nil
}
