"""HeroClix (WizKids 2002) on the shared rules core: data files and rules, in progress.

The env ``heroclix_v0`` is registered here once the engine passes the conformance suite;
until then this package only holds loaders for its data (figure dials, maps) that the engine
will use.
"""
