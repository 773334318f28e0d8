import { signOut } from '@bvdb/contract';
import { useQueryClient } from '@tanstack/react-query';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import NavDropdown from 'react-bootstrap/NavDropdown';
import Navbar from 'react-bootstrap/Navbar';
import { Link, useNavigate } from 'react-router';
import { apiCall } from '../lib/api-client';
import { hasRole, isStaff, useSession } from '../lib/session';
import { ADMINS } from '@bvdb/contract';
import { AnalyteSearch } from '../features/search/components/analyte-search';

const INFO_PAGES = [
  ['/about', 'About'],
  ['/eflm-wg', 'Publications'],
  ['/publication_structure', 'How to Write a Paper on BV'],
  ['/background', 'Background'],
  ['/disclaimer', 'Disclaimer'],
] as const;

/** The top navigation of spec section 2. */
export function SiteNav() {
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logout = async () => {
    try {
      await apiCall(signOut, { csrfToken: session.csrf_token });
      await queryClient.invalidateQueries();
      void navigate('/');
    } catch (err) {
      console.error('Logout failed', err);
    }
  };
  return (
    <header>
      <Navbar expand="xl" bg="primary" variant="dark" className="mb-3" aria-label="Main">
        <Container fluid>
          <Navbar.Brand as={Link} to="/" className="d-flex align-items-center gap-2">
            <img src="/logo.svg" alt="" width="32" height="32" />
            <span>BV Database</span>
          </Navbar.Brand>
          <Navbar.Toggle aria-controls="main-nav" />
          <Navbar.Collapse id="main-nav">
            <Nav className="me-auto flex-wrap">
              <NavDropdown title="BV Data" id="nav-bv-data">
                <NavDropdown.Item as={Link} to="/references">
                  By Reference
                </NavDropdown.Item>
                <NavDropdown.Item as={Link} to="/bv_specifications/measurand">
                  By Measurands
                </NavDropdown.Item>
                <NavDropdown.Item as={Link} to="/matrices">
                  List of Matricies
                </NavDropdown.Item>
                <NavDropdown.Item as={Link} to="/meta_calculations">
                  List of BV estimates
                </NavDropdown.Item>
                <NavDropdown.Item as={Link} to="/bv_specifications">
                  All BV Data
                </NavDropdown.Item>
              </NavDropdown>
              {session.user && !isStaff(session) ? (
                // An assessor's one page of their own; staff find it in their account menu (the
                // navigation stays one row at 1200 px).
                <Nav.Link as={Link} to="/appraisals">
                  My appraisals
                </Nav.Link>
              ) : null}
              {isStaff(session) ? (
                <NavDropdown title="Administration" id="nav-admin">
                  <NavDropdown.Item as={Link} to="/bv_specifications/new">
                    Enter New BIVAC Dataset
                  </NavDropdown.Item>
                  <NavDropdown.Item as={Link} to="/bv_specifications/upload">
                    Upload Datasets from a Spreadsheet
                  </NavDropdown.Item>
                  <NavDropdown.Item as={Link} to="/references/new">
                    Enter New Reference
                  </NavDropdown.Item>
                  <NavDropdown.Item as={Link} to="/references/import">
                    Import References from a Citation File
                  </NavDropdown.Item>
                  <NavDropdown.Item as={Link} to="/analyte_filter">
                    Filter and Manage Data by Dataset
                  </NavDropdown.Item>
                  <NavDropdown.Item as={Link} to="/reference_filter">
                    Filter and Manage Data by Reference
                  </NavDropdown.Item>
                  <NavDropdown.Item as={Link} to="/units">
                    Units
                  </NavDropdown.Item>
                  <NavDropdown.Divider />
                  <NavDropdown.Item as={Link} to="/dashboard">
                    Dashboard
                  </NavDropdown.Item>
                  <NavDropdown.Item as={Link} to="/admin/import">
                    Import a Database
                  </NavDropdown.Item>
                  <NavDropdown.Item as={Link} to="/jobs">
                    Job Tracker
                  </NavDropdown.Item>
                  <NavDropdown.Item as={Link} to="/meta_jobs">
                    Meta Job Progress
                  </NavDropdown.Item>
                  <NavDropdown.Item as={Link} to="/meta_simulator">
                    Meta Calculation Simulator
                  </NavDropdown.Item>
                  <NavDropdown.Item as={Link} to="/meta_checker">
                    Meta-calculation Checker
                  </NavDropdown.Item>
                  <NavDropdown.Item as={Link} to="/input_tables">
                    Input Tables
                  </NavDropdown.Item>
                  <NavDropdown.Divider />
                  <NavDropdown.Item as={Link} to="/appraisals/board">
                    Appraisal Board
                  </NavDropdown.Item>
                  {hasRole(session, ADMINS) ? (
                    <>
                      <NavDropdown.Item as={Link} to="/appraisals/agreement">
                        Appraisal Agreement
                      </NavDropdown.Item>
                      <NavDropdown.Item as={Link} to="/users">
                        Users
                      </NavDropdown.Item>
                    </>
                  ) : null}
                  <NavDropdown.Divider />
                  <NavDropdown.Item as={Link} to="/mailing_list">
                    Mailing List
                  </NavDropdown.Item>
                </NavDropdown>
              ) : (
                <NavDropdown.Divider as="span" className="d-none" />
              )}
              <NavDropdown title="Calculators" id="nav-calculators">
                <NavDropdown.Item as={Link} to="/calculators/aps">
                  Analytical Performance Specification
                </NavDropdown.Item>
                <NavDropdown.Item as={Link} to="/calculators/rcv">
                  Reference Change Value
                </NavDropdown.Item>
                <NavDropdown.Item as={Link} to="/calculators/rcv-application">
                  Application of the RCV
                </NavDropdown.Item>
                <NavDropdown.Item as={Link} to="/calculators/individuality">
                  Individuality and set point
                </NavDropdown.Item>
              </NavDropdown>
              <NavDropdown title="More" id="nav-more">
                {INFO_PAGES.map(([to, label]) => (
                  <NavDropdown.Item key={to} as={Link} to={to}>
                    {label}
                  </NavDropdown.Item>
                ))}
              </NavDropdown>
            </Nav>
            <div className="my-2 my-xl-0 me-xl-3 nav-search">
              <AnalyteSearch />
            </div>
            <Nav>
              {session.user ? (
                <NavDropdown title={session.user.name ?? session.user.email} id="nav-account" align="end">
                  {isStaff(session) ? (
                    <NavDropdown.Item as={Link} to="/appraisals">
                      My appraisals
                    </NavDropdown.Item>
                  ) : null}
                  <NavDropdown.Item as={Link} to="/users/edit">
                    Change Password
                  </NavDropdown.Item>
                  <NavDropdown.Item as="button" onClick={() => void logout()}>
                    Logout
                  </NavDropdown.Item>
                </NavDropdown>
              ) : (
                <Nav.Link as={Link} to="/users/sign_in">
                  Login
                </Nav.Link>
              )}
            </Nav>
          </Navbar.Collapse>
        </Container>
      </Navbar>
    </header>
  );
}
