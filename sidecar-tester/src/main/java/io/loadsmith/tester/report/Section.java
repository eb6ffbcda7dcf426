package io.loadsmith.tester.report;

/**
 * One section of the page, with its link in the page's nav: the link is there exactly when the section is.
 * Each section reads a {@link PageContext} and writes its HTML in one go.
 */
interface Section {
    /** The id of the section's element, the target of its nav link. */
    String id();

    /** The nav link's text. */
    String navTitle();

    /** Whether the results hold anything for this section; a section not shown has no link either. */
    boolean shown();

    /** Appends the section's HTML; called only when {@link #shown()}. */
    void appendTo(StringBuilder b);
}
