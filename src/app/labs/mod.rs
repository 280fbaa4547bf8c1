//! One lab per algorithm: its overlay (drawn from the core's recorded steps), its legend,
//! its settings panel, its plot series. The workspace holds the registry and loops over
//! it, like the egui demo app's list of demos. The trait is in `lab.rs`, so that this file
//! only lists the labs (and no lab imports the file that imports it).

mod clip;
mod epa;
mod gjk;
mod lab;
mod minkowski;
mod sat;
mod sweep;
pub mod time_chart;

pub use lab::{num, vec_str, Lab, LabCtx, Series};
pub use sweep::motion_ui as sweep_motion_ui;

/// Every lab, in the order of the Algorithms panel and of drawing.
pub fn registry() -> Vec<Box<dyn Lab>> {
    vec![
        Box::new(minkowski::MinkowskiLab),
        Box::new(sat::SatLab),
        Box::new(gjk::GjkLab),
        Box::new(epa::EpaLab),
        Box::new(clip::ClipLab),
        Box::new(sweep::SweepLab),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::analysis::{Analysis, PairSettings};
    use crate::app::examples;
    use crate::app::state::Document;
    use crate::query::Algorithm;

    #[test]
    fn every_lab_has_a_name_a_key_and_a_legend() {
        let labs = registry();
        for lab in &labs {
            assert!(!lab.name().is_empty());
            assert_eq!(
                Algorithm::from_key(lab.algorithm().key()),
                Some(lab.algorithm())
            );
            assert!(!lab.legend().is_empty(), "{} has no legend", lab.name());
        }
        let mut keys: Vec<_> = labs.iter().map(|l| l.algorithm().key()).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), labs.len());
    }

    #[test]
    fn every_step_of_the_welcome_scene_has_a_sentence() {
        let doc = Document::parse(examples::welcome(), "welcome").unwrap();
        let run = Analysis::run(&doc, &PairSettings::default()).unwrap();
        for lab in registry() {
            let a = lab.algorithm();
            for k in 0..run.step_count(a) {
                assert!(
                    !run.sentence(a, k).unwrap_or_default().trim().is_empty(),
                    "{} step {k}",
                    lab.name()
                );
            }
        }
    }
}
