// Package rule is the learned allocation rule of SPEC §16: a routing tree
// R(j, p) over job and cluster features (the expr.Routing catalogue)
// sends each schedulable job to the feasible cluster with the smallest R,
// either for the jobs that arrived at t (scope arrivals, like MCT) or for
// every job of Js (scope all, like EVO). It plugs into simcore's list
// scheduler through the allocation seam alone (simcore.Allocation) and
// registers itself on a simcore.Registry (Register), as simcore/evo does.
//
// It may import simcore, expr and internal/...; simcore must not import it,
// and it must not import learn, experiment or cmd (internal/archtest).
package rule
