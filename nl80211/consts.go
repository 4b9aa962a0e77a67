package nl80211

// Values from <linux/nl80211.h>, kept here so that the package builds, and
// its tests run, on every OS.
const (
	attrCenterFreq1         = 0xa0      // NL80211_ATTR_CENTER_FREQ1
	attrCenterFreq2         = 0xa1      // NL80211_ATTR_CENTER_FREQ2
	attrChannelWidth        = 0x9f      // NL80211_ATTR_CHANNEL_WIDTH
	attrExtFeatures         = 0xd9      // NL80211_ATTR_EXT_FEATURES
	attrFeatureFlags        = 0x8f      // NL80211_ATTR_FEATURE_FLAGS
	attrIfindex             = 0x3       // NL80211_ATTR_IFINDEX
	attrIfname              = 0x4       // NL80211_ATTR_IFNAME
	attrIftype              = 0x5       // NL80211_ATTR_IFTYPE
	attrMac                 = 0x6       // NL80211_ATTR_MAC
	attrMntrFlags           = 0x17      // NL80211_ATTR_MNTR_FLAGS
	attrSocketOwner         = 0xcc      // NL80211_ATTR_SOCKET_OWNER
	attrSplitWiphyDump      = 0xae      // NL80211_ATTR_SPLIT_WIPHY_DUMP
	attrSupportedIftypes    = 0x20      // NL80211_ATTR_SUPPORTED_IFTYPES
	attrSurveyInfo          = 0x54      // NL80211_ATTR_SURVEY_INFO
	attrWiphy               = 0x1       // NL80211_ATTR_WIPHY
	attrWiphyBands          = 0x16      // NL80211_ATTR_WIPHY_BANDS
	attrWiphyChannelType    = 0x27      // NL80211_ATTR_WIPHY_CHANNEL_TYPE
	attrWiphyFreq           = 0x26      // NL80211_ATTR_WIPHY_FREQ
	attrWiphyName           = 0x2       // NL80211_ATTR_WIPHY_NAME
	bandAttrFreqs           = 0x1       // NL80211_BAND_ATTR_FREQS
	bandAttrHtCapa          = 0x4       // NL80211_BAND_ATTR_HT_CAPA
	bandAttrRates           = 0x2       // NL80211_BAND_ATTR_RATES
	bitrateAttrRate         = 0x1       // NL80211_BITRATE_ATTR_RATE
	chanHt20                = 0x1       // NL80211_CHAN_HT20
	chanHt40minus           = 0x2       // NL80211_CHAN_HT40MINUS
	chanHt40plus            = 0x3       // NL80211_CHAN_HT40PLUS
	chanNoHt                = 0x0       // NL80211_CHAN_NO_HT
	cmdDelInterface         = 0x8       // NL80211_CMD_DEL_INTERFACE
	cmdGetInterface         = 0x5       // NL80211_CMD_GET_INTERFACE
	cmdGetSurvey            = 0x32      // NL80211_CMD_GET_SURVEY
	cmdGetWiphy             = 0x1       // NL80211_CMD_GET_WIPHY
	cmdNewInterface         = 0x7       // NL80211_CMD_NEW_INTERFACE
	cmdSetWiphy             = 0x2       // NL80211_CMD_SET_WIPHY
	featureActiveMonitor    = 0x20000   // NL80211_FEATURE_ACTIVE_MONITOR
	frequencyAttrDisabled   = 0x2       // NL80211_FREQUENCY_ATTR_DISABLED
	frequencyAttrFreq       = 0x1       // NL80211_FREQUENCY_ATTR_FREQ
	frequencyAttrMaxTxPower = 0x6       // NL80211_FREQUENCY_ATTR_MAX_TX_POWER
	frequencyAttrNoIr       = 0x3       // NL80211_FREQUENCY_ATTR_NO_IR
	frequencyAttrRadar      = 0x5       // NL80211_FREQUENCY_ATTR_RADAR
	genlName                = "nl80211" // NL80211_GENL_NAME
	surveyInfoFrequency     = 0x1       // NL80211_SURVEY_INFO_FREQUENCY
	surveyInfoInUse         = 0x3       // NL80211_SURVEY_INFO_IN_USE
	surveyInfoNoise         = 0x2       // NL80211_SURVEY_INFO_NOISE
	surveyInfoTime          = 0x4       // NL80211_SURVEY_INFO_TIME
	surveyInfoTimeBssRx     = 0xb       // NL80211_SURVEY_INFO_TIME_BSS_RX
	surveyInfoTimeBusy      = 0x5       // NL80211_SURVEY_INFO_TIME_BUSY
	surveyInfoTimeExtBusy   = 0x6       // NL80211_SURVEY_INFO_TIME_EXT_BUSY
	surveyInfoTimeRx        = 0x7       // NL80211_SURVEY_INFO_TIME_RX
	surveyInfoTimeScan      = 0x9       // NL80211_SURVEY_INFO_TIME_SCAN
	surveyInfoTimeTx        = 0x8       // NL80211_SURVEY_INFO_TIME_TX
)
