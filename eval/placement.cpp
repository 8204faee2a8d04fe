#include "placement.h"

#include "terms.h"

namespace dejarik::eval {

Placement bestPlacement(const Position& pos, const Tunables& tunables, Memo* memo) {
    EventList list;
    pos.generate(list);
    const double side = perspective(pos.decider());
    Placement best{pos, 0, Event()};
    bool first = true;
    for (const Event e : list) {
        Position child = pos;
        child.apply(e);
        // A placement finishes the action: the child is never at another placement.
        const double v = scoredValue(child, tunables, memo);
        if (first || side * v > side * best.value) {
            best = {child, v, e};
            first = false;
        }
    }
    return best;
}

}  // namespace dejarik::eval
