// Package flow is the network-flow method: models whose families are one person
// each over laminar rows (Shaped) are minimum-cost flow problems, solved exactly
// without branching by cost scaling; flow.go says how and why.
//
// Files:
//
//	flow.go     Method, Solve over the dimensions, Fallback (on the time limit)
//	tree.go     Shaped, and the laminar forest of each dimension's rows
//	network.go  the network of one dimension: bids, refines, the dual bound and
//	            the reason when families that must be placed cannot be
package flow
