package casesvc

import "solidarity"

// The service is the case flow of the root package's interfaces, as internal/client
// is over HTTP.
var _ solidarity.DeadlineService[DueRow, Consequence, Confirmed] = (*Service)(nil)
